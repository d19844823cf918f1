import { createHash } from 'node:crypto';
import { bytesOf, JoinedParts, type Body } from '../../compression';
import type { Db } from '../../db';
import type { MediaService } from '../media/service';
import { API_BASE, TOTAL_COUNT_HEADER, can, type Actor, type CategorySlug } from '@app/shared';
import { toGalleryItem } from './dto';
import { RecordFragments } from './fragments';
import { findGalleryImage, listGallery } from './gallery-query';
import { cursorOf, listPage } from './list-query';
import type { ListPositions } from './list-positions';
import { encodeCursor, linkHeader, resolvePage, type PageQuery } from './paging';
import { recordsAsFragments, type Fragment } from './serialise';

const NEXT_CURSOR_HEADER = 'X-Next-Cursor';

/** A read's answer as data, so it can be cached, conditioned (ETag) and sent by one function. */
export interface ReadResponse {
  status: number;
  headers: Record<string, string>;
  /** The body serialised (UTF-8 JSON): what every sender sends (a list page as its records' parts). */
  bytes: Body;
  /** The body as data (feeds, link previews), parsed from `bytes` when first asked for. */
  readonly body: unknown;
}

/** The reads of the records API. `news` is the newest records of every category. */
export type ReadTarget =
  | { kind: 'list'; category: CategorySlug; query: PageQuery }
  | { kind: 'one'; category: CategorySlug; id: string }
  | { kind: 'news'; query: PageQuery }
  | { kind: 'images'; query: PageQuery }
  | { kind: 'image'; id: string };

/** What the reads of records use: the database, the files' public description, and the kept serialised records. */
export interface RecordReadServices {
  db: Db;
  media: MediaService;
  recordFragments: RecordFragments;
  /** Where records stood in the lists read lately, so deep numbered pages need not walk from the start. */
  listPositions: ListPositions;
}

export function answer(status: number, headers: Record<string, string>, body: string | Body): ReadResponse {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  let parsed: { value: unknown } | null = null;
  return {
    status,
    headers,
    bytes,
    get body() {
      parsed ??= { value: JSON.parse(bytesOf(bytes).toString('utf8')) };
      return parsed.value;
    },
  };
}

/** A weak ETag over the body's parts (their SHA-256s, or the body itself) and the list total. */
export function etagOf(parts: readonly (Buffer | string)[], headers: Record<string, string>): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return `W/"${hash.update(headers[TOTAL_COUNT_HEADER] ?? '').digest('base64url').slice(0, 27)}"`;
}

/**
 * Records past a list page whose ids the page's statement also reads: a page that must read some of its records from
 * the database reads these too when they are not kept, so someone paging on (a reader, a crawler) finds the next
 * pages' records kept and each of those pages costs one statement, not two.
 */
const READ_AHEAD = 16;

/**
 * Entries past a numbered page whose positions its statement reads too (from the index alone: an id and an instant
 * each): the next pages of someone paging on, and the other pages of many readers paging at once, are then known
 * (records/list-positions.ts) and run no statement for their ids.
 */
const POSITIONS_AHEAD = 100;

const notFound = (): ReadResponse => answer(404, {}, JSON.stringify({ message: 'Not found' }));

/** A 200 whose body is `value`, serialised here. */
function ok(value: unknown, headers: Record<string, string> = {}): ReadResponse {
  const json = JSON.stringify(value);
  headers.etag = etagOf([json], headers);
  return answer(200, headers, json);
}

/**
 * Who a read is for: null for an anonymous visitor; a signed-in reader also sees the records that are not public
 * (events and massacres), who created each record, and links to files that are not public, signed for them.
 */
export type Reader = Actor | null;

/** Computes a read for `reader`. Cache headers are added by the caller, which knows who is asking. */
export async function computeRead(app: RecordReadServices, target: ReadTarget, reader: Reader): Promise<ReadResponse> {
  const fragments = app.recordFragments;
  const includePrivate = can.readPrivate(reader);
  const signedIn = reader !== null;
  switch (target.kind) {
    case 'one': {
      const [fragment] = await recordsAsFragments(app, [target.id], undefined, [], reader);
      if (fragment?.mergedInto && fragment.category === target.category) return mergedRedirect(app, target.category, fragment.mergedInto, reader);
      if (!fragment || fragment.category !== target.category || fragment.trashed) return notFound();
      if (!includePrivate && !fragment.public) return notFound();
      const etag = etagOf(RecordFragments.hashesOf(fragment, signedIn), {});
      return answer(200, { etag }, new JoinedParts(RecordFragments.partsOf(fragment, signedIn)));
    }
    case 'image': {
      const row = await findGalleryImage(app.db, target.id, includePrivate);
      return row ? ok(toGalleryItem(row, app.media, reader)) : notFound();
    }
    case 'list':
    case 'news': {
      const page = resolvePage(target.query);
      if (!page) return answer(400, {}, JSON.stringify({ cursor: 'This cursor is not valid' }));
      const category = target.kind === 'list' ? target.category : undefined;
      const generation = fragments.currentGeneration();
      const { entries, next, total } = await listPage(app.db, { category, includePrivate }, page, {
        positions: app.listPositions,
        // A keyset page's position is not known, so nothing past it is remembered.
        readAhead: page.cursor ? READ_AHEAD : POSITIONS_AHEAD,
      });
      // The first page is read again and again and its records are kept; the pages after it are read by whoever reads on.
      const recordsAhead = page.offset > 0 || page.cursor ? next.slice(0, READ_AHEAD) : [];
      const parts = (await recordsAsFragments(app, entries.map((e) => e.id), generation, recordsAhead, reader)).filter((f): f is Fragment => Boolean(f));
      const last = entries.at(-1);
      const headers = withPaging({}, total, linkHeader(`${API_BASE}/${category ?? 'news'}`, page, total, entries.length, last ? cursorOf(last) : null));
      // Where keyset paging starts: the position after this page's last item, whichever paging this call used.
      if (last && entries.length === page.limit) headers[NEXT_CURSOR_HEADER] = encodeCursor(cursorOf(last));
      headers.etag = etagOf(
        parts.flatMap((part) => RecordFragments.hashesOf(part, signedIn)),
        headers,
      );
      return answer(200, headers, RecordFragments.join(parts, signedIn));
    }
    case 'images': {
      const page = resolvePage({ ...target.query, cursor: undefined });
      if (!page) return answer(400, {}, JSON.stringify({ cursor: 'This cursor is not valid' }));
      const { rows, total } = await listGallery(app.db, includePrivate, page);
      const body = rows.map((row) => toGalleryItem(row, app.media, reader));
      return ok(body, withPaging({}, total, linkHeader(`${API_BASE}/images`, page, total, rows.length, null)));
    }
  }
}

/** Merges followed from a merged record to the record it now belongs to (a merged record kept, then merged itself). */
const MERGE_HOPS_MAX = 8;

/**
 * A record merged into another (the same person recorded twice, modules/duplicates) answers with a permanent redirect
 * to the record it now belongs to (through later merges of that one), and says which in its body: to a reader who may
 * read that record. Anyone else (the kept record since trashed, or not public to them) gets the 404 they got before,
 * so no address leads to a record its reader may not see.
 */
async function mergedRedirect(app: RecordReadServices, category: CategorySlug, mergedInto: string, reader: Reader): Promise<ReadResponse> {
  let id = mergedInto;
  for (let hop = 0; hop < MERGE_HOPS_MAX; hop++) {
    const [kept] = await recordsAsFragments(app, [id], undefined, [], reader);
    if (!kept || kept.category !== category) return notFound();
    if (kept.mergedInto) {
      id = kept.mergedInto;
      continue;
    }
    if (kept.trashed || (!can.readPrivate(reader) && !kept.public)) return notFound();
    return answer(301, { location: `${API_BASE}/${category}/${id}` }, JSON.stringify({ message: 'Merged into another record', mergedInto: id }));
  }
  return notFound();
}

function withPaging(headers: Record<string, string>, total: number, link: string | null): Record<string, string> {
  headers[TOTAL_COUNT_HEADER] = String(total);
  if (link) headers.link = link;
  return headers;
}
