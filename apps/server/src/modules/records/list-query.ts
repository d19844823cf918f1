import { and, eq, isNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { CategorySlug } from '@app/shared';
import { preparedOnce, preparedRows, type Db, type Executor } from '../../db';
import { recordCounts, records } from '../../db/schema';
import type { ListPositions } from './list-positions';
import type { Cursor, Page } from './paging';
import { findRecordViews, type RecordView } from './repository';

/**
 * The query step of a list read (docs/api.md, "A list read in five files"): which records a page of a list holds, in
 * order, with the list's total, read from the list's index (the records themselves are serialised by serialise.ts).
 */

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
 * A timestamp to the microsecond, in UTC, as text (JavaScript's Date keeps only milliseconds): a keyset position must
 * be the stored value itself, or the records that share its millisecond (a bulk insert, an import) fall between two
 * pages.
 */
function exactTime(column: SQLWrapper) {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

export const createdAtExact = exactTime(records.createdAt);

export function cursorOf(row: { createdAt: string | Date; id: string }): Cursor {
  return { createdAt: typeof row.createdAt === 'string' ? row.createdAt : row.createdAt.toISOString(), id: row.id };
}

