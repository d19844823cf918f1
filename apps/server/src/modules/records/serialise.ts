import { toRecordDto } from './dto';
import { RecordFragments, type RecordFragment } from './fragments';
import type { Reader, RecordReadServices } from './reads';
import { linksSameForEveryone } from './links';
import { findRecordViews, type RecordView } from './repository';

/**
 * The serialise step of a read (docs/api.md, "A list read in five files"): records as the API shows them, as UTF-8
 * JSON bytes, from those kept serialised (fragments.ts) or read and serialised now, each record read once however
 * many requests want it at the same moment.
 */

/**
 * A serialised record for one read: from the kept fragments, or made now (and kept when it may be). A trashed one
 * says only that, and the record it was merged into, if it was.
 */
export type Fragment = RecordFragment & { trashed?: boolean; mergedInto?: string };

/**
 * What a read of a record gives the requests that wait for it: its fragment when every reader gets the same JSON,
 * else its rows, which each request serialises for its own reader (a link to a file that is not public is signed
 * for one reader: it is never handed to another).
 */
type SharedRead = Fragment | RecordView;

/**
 * The records `ids` as fragments for `reader`, in the same order (null for an id that is not a record). Records not
 * kept are read in one statement, serialised and kept when every reader would see the same JSON: live, and every
 * file public (a hidden file's URL is signed for its reader). Kept fragments are what anonymous visitors get; a
 * signed-in reader gets them with the creator spliced in (RecordFragments.partsOf). A record another request is
 * reading already is waited for, not read again. `readAhead`: records read in the same statement when one is
 * needed, if not kept. `generation`: taken before the ids were read, so a change in between keeps nothing read
 * before it, and joins no read started before it.
 */
export async function recordsAsFragments(
  app: RecordReadServices,
  ids: readonly string[],
  generation = app.recordFragments.currentGeneration(),
  readAhead: readonly string[] = [],
  reader: Reader = null,
): Promise<(Fragment | null)[]> {
  const fragments = app.recordFragments;
  const out: (Fragment | null)[] = ids.map((id) => fragments.get(id) ?? null);
  const missing = ids.filter((_, i) => !out[i]);
  if (!missing.length) return out;
  const reads = new Map<string, Promise<SharedRead | null>>();
  const toRead: string[] = [];
  for (const id of missing) {
    const underWay = fragments.readingNow<SharedRead | null>(id, generation);
    if (underWay) reads.set(id, underWay);
    else toRead.push(id);
  }
  if (toRead.length) {
    for (const id of readAhead) if (!fragments.get(id) && !fragments.readingNow(id, generation)) toRead.push(id);
    const made = findRecordViews(app.db, toRead).then((views) => new Map(views.map((view) => [view.record.id, sharedReadOf(app, view)])));
    for (const id of toRead) reads.set(id, fragments.readOnce(id, () => made.then((byId) => byId.get(id) ?? null), generation));
  }
  const read = new Map(await Promise.all([...reads].map(async ([id, shared]) => [id, await shared] as const)));
  return out.map((fragment, i) => fragment ?? forReader(app, read.get(ids[i]!) ?? null, reader));
}

/** A record as every reader gets it (its fragment, kept by RecordFragments.readOnce), or its rows when it depends on the reader. */
function sharedReadOf(app: RecordReadServices, view: RecordView): SharedRead {
  const { record, files, incident } = view;
  const trashed = record.deletedAt !== null;
  const sameForEveryone = files.every((file) => file.removedAt === null && file.recordLive && file.recordPublic) && linksSameForEveryone(record, incident);
  // A trashed record's fragment only tells the reads it is trashed: its bytes are sent to nobody.
  if (!trashed && !sameForEveryone) return view;
  const json = JSON.stringify(toRecordDto(record, files, app.media, { incident }));
  const fragment: Fragment = RecordFragments.make(json, record.category, record.public, { userId: record.userId });
  if (trashed) {
    fragment.trashed = true;
    if (record.mergedInto) fragment.mergedInto = record.mergedInto;
  }
  return fragment;
}

function forReader(app: RecordReadServices, shared: SharedRead | null, reader: Reader): Fragment | null {
  if (!shared || 'bytes' in shared) return shared;
  const { record, files, incident } = shared;
  return RecordFragments.make(JSON.stringify(toRecordDto(record, files, app.media, { reader, incident })), record.category, record.public);
}
