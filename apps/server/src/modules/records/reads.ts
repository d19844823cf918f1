import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { API_BASE, CATEGORIES, TOTAL_COUNT_HEADER, type CategorySlug } from '@app/shared';
import { toGalleryItem, toRecordDto } from './dto';
import { encodeCursor, linkHeader, resolvePage, type PageQuery } from './paging';
import { cursorOf, findGalleryImage, findRecordView, listGallery, listRecords } from './repository';

export const NEXT_CURSOR_HEADER = 'X-Next-Cursor';

/** A read's answer as data, so it can be cached, conditioned (ETag) and sent by one function. */
export interface ReadResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** The body serialised, once: the ETag is its hash and every sender sends these characters. */
  json: string;
}

/** The reads of the records API. `news` is the newest records of every category. */
export type ReadTarget =
  | { kind: 'list'; category: CategorySlug; query: PageQuery }
  | { kind: 'one'; category: CategorySlug; id: string }
  | { kind: 'news'; query: PageQuery }
  | { kind: 'images'; query: PageQuery }
  | { kind: 'image'; id: string };

/** Everything the reads depend on: which category/records, and whether non-public ones are shown. */
export function readKey(target: ReadTarget): string {
  return JSON.stringify(target);
}

function etagOf(json: string, headers: Record<string, string>): string {
  const hash = createHash('sha256')
    .update(json)
    .update(headers[TOTAL_COUNT_HEADER] ?? '')
    .digest('base64url')
    .slice(0, 27);
  return `W/"${hash}"`;
}

type Computed = Omit<ReadResponse, 'json'>;

const notFound = (): Computed => ({ status: 404, headers: {}, body: { message: 'Not found' } });

/**
 * Computes a read. `includePrivate` is true for signed-in readers (they also see non-public events
 * and massacres). Cache headers are added by the caller, which knows who is asking.
 */
export async function computeRead(app: FastifyInstance, target: ReadTarget, includePrivate: boolean): Promise<ReadResponse> {
  const computed = await compute(app, target, includePrivate);
  const response: ReadResponse = { ...computed, json: JSON.stringify(computed.body) };
  if (response.status === 200) response.headers.etag = etagOf(response.json, response.headers);
  return response;
}

async function compute(app: FastifyInstance, target: ReadTarget, includePrivate: boolean): Promise<Computed> {
  switch (target.kind) {
    case 'one': {
      const view = await findRecordView(app.db, target.id);
      const row = view?.record;
      if (!row || row.deletedAt || row.category !== target.category) return notFound();
      if (!includePrivate && !row.public) return notFound();
      return { status: 200, headers: {}, body: toRecordDto(row, view.files, app.media) };
    }
    case 'image': {
      const row = await findGalleryImage(app.db, target.id, includePrivate);
      if (!row) return notFound();
      return { status: 200, headers: {}, body: toGalleryItem(row, app.media) };
    }
    case 'list':
    case 'news': {
      const page = resolvePage(target.query);
      if (!page) return { status: 400, headers: {}, body: { cursor: 'This cursor is not valid' } };
      const category = target.kind === 'list' ? target.category : undefined;
      const { rows, total } = await listRecords(app.db, { category, includePrivate }, page);
      const body = rows.map(({ record, files }) => toRecordDto(record, files, app.media));
      const path = `${API_BASE}/${category ?? 'news'}`;
      const last = rows.at(-1)?.record;
      const response = withPaging({ status: 200, headers: {}, body }, total, linkHeader(path, page, total, rows.length, last ? cursorOf(last) : null));
      // Where keyset paging starts: the position after this page's last item, whichever paging this call used.
      if (last && rows.length === page.limit) response.headers[NEXT_CURSOR_HEADER] = encodeCursor(cursorOf(last));
      return response;
    }
    case 'images': {
      const page = resolvePage({ ...target.query, cursor: undefined });
      if (!page) return { status: 400, headers: {}, body: { cursor: 'This cursor is not valid' } };
      const { rows, total } = await listGallery(app.db, includePrivate, page);
      const body = rows.map((row) => toGalleryItem(row, app.media));
      return withPaging({ status: 200, headers: {}, body }, total, linkHeader(`${API_BASE}/images`, page, total, rows.length, null));
    }
  }
}

function withPaging(response: Computed, total: number, link: string | null): Computed {
  response.headers[TOTAL_COUNT_HEADER] = String(total);
  if (link) response.headers.link = link;
  return response;
}

export function isKnownCategory(slug: string): slug is CategorySlug {
  return slug in CATEGORIES;
}
