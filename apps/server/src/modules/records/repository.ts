import { and, asc, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { preparedOnce, type Db, type Executor, type Tx } from '../../db';
import type { MediaView } from '../media/service';
import { media, records, type RecordRow } from '../../db/schema';
import type { Page } from './paging';
import { incidentOfRecord, type IncidentJoin } from './links';

export type { Tx } from '../../db';

/**
 * A record's live files in their order, as the JSON of their public description's columns (MediaView), read in the
 * record's own statement: records and their files come in one round trip instead of two.
 */
// Spelled out with its table names: in a select list drizzle writes columns without their table, and here both
// tables have an id.
export const liveFilesOfRecord = sql<MediaView[]>`(select coalesce(json_agg(json_build_object(
    'id', m.id, 'kind', m.kind, 'width', m.width, 'height', m.height, 'variants', m.variants, 'sha256', m.sha256,
    'size', m.size, 'mime', m.mime, 'caption', m.caption, 'graphic', m.graphic, 'status', m.status,
    'publicKey', m.public_key, 'removedAt', m.removed_at, 'recordLive', m.record_live, 'recordPublic', m.record_public
  ) order by m.position, m.created_at), '[]'::json)
  from media m where m.record_id = records.id and m.removed_at is null)`;

/** A record with its live files, as the reads show them. */
export interface RecordView {
  record: RecordRow;
  files: MediaView[];
  /** A person's incident (links.ts), as its readers' visibility needs it. */
  incident: IncidentJoin | null;
}

/** One record (live or trashed) with its live files, in one prepared statement. */
export async function findRecordView(db: Db, id: string): Promise<RecordView | null> {
  const [row] = await findRecordViews(db, [id]);
  return row ?? null;
}

/** Records (live or trashed) with their live files, by id, in one prepared statement; in no particular order. */
export async function findRecordViews(db: Db, ids: readonly string[]): Promise<RecordView[]> {
  if (!ids.length) return [];
  return preparedOnce(db, 'record_views', () =>
    db
      .select({ record: records, files: liveFilesOfRecord, incident: incidentOfRecord })
      .from(records)
      .where(sql`${records.id} = any(${sql.placeholder('ids')}::uuid[])`)
      .prepare('record_views'),
  ).execute({ ids });
}

/** Any row by id, live or trashed. */
export async function findRecord(db: Executor, id: string): Promise<RecordRow | null> {
  const [row] = await db.select().from(records).where(eq(records.id, id)).limit(1);
  return row ?? null;
}

/** The row, locked until the transaction ends, so concurrent writes to one record apply one after the other. */
export async function lockRecord(tx: Tx, id: string): Promise<RecordRow | null> {
  const [row] = await tx.select().from(records).where(eq(records.id, id)).for('update');
  return row ?? null;
}

export async function listTrash(db: Db, page: Page) {
  const where = isNotNull(records.deletedAt);
  const [rows, [count]] = await Promise.all([
    db.select().from(records).where(where).orderBy(sql`${records.deletedAt} desc nulls last`, desc(records.id)).limit(page.limit).offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(records).where(where),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}
/** A live file with its record (any category), for the image edit and delete calls. */
export async function findLiveMedia(db: Executor, mediaId: string) {
  const [row] = await db
    .select({ media, record: records })
    .from(media)
    .innerJoin(records, eq(records.id, media.recordId))
    .where(and(eq(media.id, mediaId), isNull(media.removedAt)))
    .limit(1);
  return row ?? null;
}

/** Live files of one record inside a transaction (the write path must see its own uploads). */
export async function liveMediaOf(db: Executor, recordId: string) {
  return db
    .select()
    .from(media)
    .where(and(eq(media.recordId, recordId), isNull(media.removedAt)))
    .orderBy(asc(media.position), asc(media.createdAt));
}
