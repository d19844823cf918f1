import { and, asc, desc, eq, inArray, isNotNull, isNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { CATEGORY_LIST, type CategorySlug } from '@app/shared';
import { preparedOnce, preparedRows, type Db, type Executor, type Tx } from '../../db';
import type { MediaView } from '../media/service';
import { galleryCounts, media, recordCounts, records, type RecordRow } from '../../db/schema';
import type { ListPositions } from './list-positions';
import type { Cursor, Page } from './paging';
import { incidentOfRecord, type IncidentJoin } from './links';

export type { Tx } from '../../db';

export interface ListFilter {
  /** One category, or every category (news). */
  category?: CategorySlug;
  /** Signed-in readers also see non-public events and massacres. */
  includePrivate: boolean;
}

/**
 * Newest first, spelled as the indexes are declared (drizzle's `.desc()` in an index is DESC NULLS LAST, while a
 * plain ORDER BY ... DESC means NULLS FIRST): with any other spelling PostgreSQL cannot read the index in order and
 * sorts every matching row instead.
 */
export const newestFirst = [sql`${records.createdAt} desc nulls last`, sql`${records.id} desc nulls last`];

/** The news total (every category) as a SQL expression over the trigger-maintained record_counts (see countRecords). */
function newsTotal(includePrivate: boolean) {
  const visibility = sql.raw(includePrivate ? `'all'` : `'public'`);
  return sql<string>`(select coalesce(sum(${recordCounts.n}), 0) from ${recordCounts} where ${recordCounts.visibility} = ${visibility})`;
}

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

/** A list page's records, in order, as their positions (the cursor of the next page is the last one's). */
interface PageEntry {
  id: string;
  /** To the microsecond, in UTC (see createdAtExact). */
  createdAt: string;
}

/**
 * A list page's ids with the list's total, in one round trip and from the index alone (the records themselves come
 * by id, from the reads' serialised records or findRecordViews). What a numbered page (offset) reads is remembered in
 * `positions`, with the list's total; until the next change a numbered page whose every entry is known there, or that
 * is at or past the total, runs no statement, and one partly known starts from the nearest position known before it,
 * so it skips only the entries in between. `readAhead`: how many entries past the page to read as well (their ids are
 * `next`), so whoever reads the page's records can read those of the next pages in the same statement, and the next
 * pages' positions are known. A category's pages come from the function records_list_page
 * (migration 0012), one prepared statement (without drizzle: see preparedRows) whose plans PostgreSQL keeps per
 * connection instead of planning each page again. News runs newsStatement: a keyset page of news is planned for its
 * cursor every time, since the plan PostgreSQL would keep for it reads a category index and sorts the whole list.
 */
export async function listPage(
  db: Db,
  filter: ListFilter,
  page: Page,
  { positions, readAhead = 0 }: { positions?: ListPositions; readAhead?: number } = {},
): Promise<ListPageResult> {
  const list = `${filter.category ?? 'all'}_${filter.includePrivate ? 'all' : 'public'}`;
  const generation = positions?.currentGeneration() ?? 0;
  if (page.cursor || !positions) return readListPage(db, filter, page, readAhead, list, generation, positions);
  const known = fromPositions(positions, list, page, readAhead);
  if (known) return known;
  // Many readers paging at once (or one crawler's parallel requests) ask for the pages just past what is known
  // together: those a read under way will make known wait for it instead of each running the same statement.
  const underWay = positions.readingCovering(list, page.offset, page.limit, generation);
  if (underWay) {
    await underWay.catch(() => undefined);
    const knownNow = fromPositions(positions, list, page, readAhead);
    if (knownNow) return knownNow;
  }
  const end = page.offset + page.limit + readAhead;
  return positions.readPositions(list, page.offset, end, () => readListPage(db, filter, page, readAhead, list, generation, positions), generation);
}

interface ListPageResult {
  entries: PageEntry[];
  next: string[];
  total: number;
}

/** A numbered page from the positions and total known of its list, when every entry of it is known (or none exists). */
function fromPositions(positions: ListPositions, list: string, page: Page, readAhead: number): ListPageResult | null {
  const total = positions.totalOf(list);
  if (total === undefined) return null;
  if (page.offset >= total) return { entries: [], next: [], total };
  const count = Math.min(page.limit, total - page.offset);
  const entries = positions.entriesAt(list, page.offset, count);
  if (!entries) return null;
  return { entries, next: positions.entriesFrom(list, page.offset + count, readAhead).map(({ id }) => id), total };
}

/** A page read from the database: from its cursor, or from the nearest position known before its offset. */
async function readListPage(
  db: Db,
  filter: ListFilter,
  page: Page,
  readAhead: number,
  list: string,
  generation: number,
  positions: ListPositions | undefined,
): Promise<ListPageResult> {
  const start = !page.cursor && page.offset > 0 ? positions?.nearestBefore(list, page.offset) : null;
  const cursor = page.cursor ?? start?.cursor ?? null;
  const values = {
    cursorAt: cursor?.createdAt ?? null,
    cursorId: cursor?.id ?? null,
    limit: page.limit + readAhead,
    offset: page.cursor ? 0 : (start?.skip ?? page.offset),
  };
  let found: { id: string | null; createdAt: string | null; total: string | number }[];
  if (filter.category) {
    const { cursorAt, cursorId, limit, offset } = values;
    found = await preparedRows(db, 'records_list_page', CATEGORY_PAGE, [filter.category, !filter.includePrivate, cursorAt, cursorId, limit, offset]);
  } else {
    const name = `records_${cursor ? 'after' : 'page'}_${list}`;
    const statement = cursor
      ? newsStatement(db, filter.includePrivate, true)
      : preparedOnce(db, name, () => newsStatement(db, filter.includePrivate, false).prepare(name));
    found = await statement.execute(values);
  }
  // A page past the end has no row to carry the total (records_list_page returns one without an id for it).
  const total = found.length ? Number(found[0]!.total) : await countRecords(db, filter);
  // That row without an id is records_list_page's empty page, and it comes alone: no need to filter every page's rows.
  const rows = (found[0]?.id === null ? [] : (found as PageEntry[])).map(({ id, createdAt }) => ({ id, createdAt }));
  if (!page.cursor) positions?.remember(list, page.offset, rows, generation);
  positions?.rememberTotal(list, total, generation);
  return { entries: rows.slice(0, page.limit), next: rows.slice(page.limit).map(({ id }) => id), total };
}

/** A category's list page (migration 0012), sent through preparedRows. */
const CATEGORY_PAGE = 'select id, created_at as "createdAt", total from records_list_page($1, $2, $3, $4, $5, $6)';

/** The statement behind listPage for news (every category), with placeholders `cursorAt`, `cursorId`, `limit` and `offset`. */
function newsStatement(db: Db, includePrivate: boolean, cursor: boolean) {
  // Written to match the partial index records_news_idx (`deleted_at is null`), which holds the id and the order.
  const conditions: SQL[] = [isNull(records.deletedAt)];
  if (!includePrivate) conditions.push(sql`${records.public}`);
  if (cursor) {
    conditions.push(
      sql`(${records.createdAt}, ${records.id}) < (${sql.placeholder('cursorAt')}::timestamptz, ${sql.placeholder('cursorId')}::uuid)`,
    );
  }
  // The page is cut from the index first, then its rows are written out: a select list over the index scan would be
  // computed for every entry an offset skips too (to_char of every skipped date: docs/performance.md).
  const page = db
    .select({ id: records.id, createdAt: records.createdAt })
    .from(records)
    .where(and(...conditions))
    .orderBy(...newestFirst)
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .as('page');
  return db
    .select({ id: page.id, createdAt: exactTime(page.createdAt), total: newsTotal(includePrivate) })
    .from(page)
    .orderBy(sql`${page.createdAt} desc nulls last`, sql`${page.id} desc nulls last`);
}

/**
 * The list total from the trigger-maintained record_counts (one row per category, or the sum of at most nine for
 * news), so counting costs the same at a thousand records and at a million.
 */
export async function countRecords(db: Executor, filter: ListFilter): Promise<number> {
  const visibility = filter.includePrivate ? 'all' : 'public';
  const conditions = [eq(recordCounts.visibility, visibility)];
  if (filter.category) conditions.push(eq(recordCounts.category, filter.category));
  const [row] = await db
    .select({ n: sql<string>`coalesce(sum(${recordCounts.n}), 0)` })
    .from(recordCounts)
    .where(and(...conditions));
  return Number(row?.n ?? 0);
}

/** A list page's records with their files, in order, and the list's total. */
export async function listRecords(db: Db, filter: ListFilter, page: Page): Promise<{ rows: RecordView[]; total: number }> {
  const { entries, total } = await listPage(db, filter, page);
  const byId = new Map((await findRecordViews(db, entries.map((e) => e.id))).map((view) => [view.record.id, view]));
  return { rows: entries.map((e) => byId.get(e.id)).filter((view): view is RecordView => Boolean(view)), total };
}

/**
 * A record's created_at as an ISO instant to the microsecond: a keyset position must be the stored value itself, or
 * the records that share its millisecond (a bulk insert, an import) fall between two pages.
 */
/** A timestamp to the microsecond, in UTC, as text (JavaScript's Date keeps only milliseconds). */
function exactTime(column: SQLWrapper) {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

export const createdAtExact = exactTime(records.createdAt);

export function cursorOf(row: { createdAt: string | Date; id: string }): Cursor {
  return { createdAt: typeof row.createdAt === 'string' ? row.createdAt : row.createdAt.toISOString(), id: row.id };
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

const GALLERY_CATEGORIES = CATEGORY_LIST.filter((c) => c.inGallery).map((c) => c.slug);

/**
 * Live images of live records in gallery categories: newest record first, then the record's own image order. The
 * conditions and the order read only media's copies of its record's columns (kept by triggers, 0002_gallery.sql), so a
 * page walks media_gallery_idx and stops after `limit` rows, however many records there are.
 */
function galleryConditions(includePrivate: boolean): SQL[] {
  const conditions: SQL[] = [
    sql`${media.kind} = 'image'`,
    isNull(media.removedAt),
    sql`${media.recordLive}`,
    inArray(media.recordCategory, GALLERY_CATEGORIES),
  ];
  if (!includePrivate) conditions.push(sql`${media.recordPublic}`);
  return conditions;
}

const galleryOrder = [
  sql`${media.recordCreatedAt} desc nulls last`,
  sql`${media.recordId} desc nulls last`,
  asc(media.position),
  asc(media.createdAt),
  // Files added in one statement share created_at: the id makes the order total, so pages never overlap.
  asc(media.id),
];

const galleryColumns = { media, record: { id: records.id, category: records.category, title: records.title } };

/** One gallery page (exported so the index test can EXPLAIN exactly what the API runs). */
export function galleryQuery(db: Executor, includePrivate: boolean, page: Page) {
  return db
    .select(galleryColumns)
    .from(media)
    .innerJoin(records, eq(records.id, media.recordId))
    .where(and(...galleryConditions(includePrivate)))
    .orderBy(...galleryOrder)
    .limit(page.limit)
    .offset(page.offset);
}

/** The gallery total from the trigger-maintained gallery_counts: a sum of at most a few rows. */
export async function countGallery(db: Executor, includePrivate: boolean): Promise<number> {
  const [row] = await db
    .select({ n: sql<string>`coalesce(sum(${galleryCounts.n}), 0)` })
    .from(galleryCounts)
    .where(and(eq(galleryCounts.visibility, includePrivate ? 'all' : 'public'), inArray(galleryCounts.category, GALLERY_CATEGORIES)));
  return Number(row?.n ?? 0);
}

export async function listGallery(db: Db, includePrivate: boolean, page: Page) {
  const [rows, total] = await Promise.all([galleryQuery(db, includePrivate, page), countGallery(db, includePrivate)]);
  return { rows, total };
}

export async function findGalleryImage(db: Db, mediaId: string, includePrivate: boolean) {
  const [row] = await db
    .select(galleryColumns)
    .from(media)
    .innerJoin(records, eq(records.id, media.recordId))
    .where(and(eq(media.id, mediaId), ...galleryConditions(includePrivate)))
    .limit(1);
  return row ?? null;
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
