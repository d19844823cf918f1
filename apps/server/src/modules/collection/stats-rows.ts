import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { UNKNOWN_REGION, type SearchFilters } from '@app/shared';
import { STATS_VALUE_MAX } from '../../db/registry-sql';
import { recordStats, records } from '../../db/schema';
import { DIMENSIONS, dimensionFilters, filterConditions, inList, searchColumns, textQuery, type Visibility } from './filters';

/**
 * The rows that count the records matching the filters, one per key of record_stats: (category, each dimension's
 * column, month, confirmed, n, quantity). Without `q` they are read from record_stats (trigger-kept counts, a few
 * thousand rows at any size); with `q` only the records themselves can say which match, so they are counted live.
 * Date filters on record_stats work by whole months: the part of a month at either end of the range is counted live
 * over those days (the records_stats_date_idx index), the whole months between from record_stats. Statistics count
 * these rows per chart; the search counts its facets from them when it has no words.
 */

/** Where an answer's counts were read: the test of record_stats compares the two. */
export type StatisticsSource = 'aggregate' | 'live';

/** The key expressions of the trigger (db/registry-sql.ts) over the live records. */
const liveDimensions = DIMENSIONS.map(({ column, columnName, isRegion }) =>
  isRegion ? sql`coalesce(${column}, '') as ${sql.identifier(columnName)}` : sql`left(coalesce(${column}, ''), ${sql.raw(String(STATS_VALUE_MAX))}) as ${sql.identifier(columnName)}`,
);
const liveMonth = sql`coalesce(to_char(${searchColumns.date} at time zone 'UTC', 'YYYY-MM'), '')`;

/** Rows of the live records matching `filters`. */
function liveRows(filters: SearchFilters, visibility: Visibility): SQL {
  const where = filterConditions(filters, visibility);
  if (filters.q) where.push(sql`${searchColumns.vector} @@ ${textQuery(filters.q)}`);
  return sql`select ${records.category} as category, ${sql.join(liveDimensions, sql`, `)}, ${liveMonth} as month,
      ${records.approved} as confirmed, 1::bigint as n, coalesce(${records.quantity}, 0)::bigint as quantity
    from ${records} where ${sql.join(where, sql` and `)}`;
}

const statsColumn = (field: string) => (recordStats as unknown as Record<string, SQLWrapper>)[field]!;

/** Rows of record_stats matching every filter but the dates, within the months [from, to] when given. */
function aggregateRows(filters: SearchFilters, { includePrivate }: Visibility, months: { from?: string; to?: string }): SQL {
  const s = recordStats;
  const where: SQL[] = [sql`${s.visibility} = ${includePrivate ? 'all' : 'public'}`, sql`${s.n} <> 0`];
  if (filters.category) where.push(inList(s.category, filters.category));
  for (const { field, values, isRegion } of dimensionFilters(filters)) {
    where.push(inList(statsColumn(field), isRegion ? values.map((r) => (r === UNKNOWN_REGION ? '' : r)) : values));
  }
  if (filters.confirmed) where.push(sql`${s.confirmed} = ${filters.confirmed === 'true'}`);
  // An undated record is in no date range.
  if (months.from || months.to) where.push(sql`${s.month} <> ''`);
  if (months.from) where.push(sql`${s.month} >= ${months.from}`);
  if (months.to) where.push(sql`${s.month} <= ${months.to}`);
  const dimensions = DIMENSIONS.map(({ field, columnName }) => sql`${statsColumn(field)} as ${sql.identifier(columnName)}`);
  return sql`select ${s.category} as category, ${sql.join(dimensions, sql`, `)}, ${s.month} as month,
      ${s.confirmed} as confirmed, ${s.n} as n, ${s.quantity} as quantity from ${s} where ${sql.join(where, sql` and `)}`;
}

const monthOf = (day: string) => day.slice(0, 7);
const addMonths = (month: string, delta: number) => {
  const d = new Date(`${month}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + delta);
  return d.toISOString().slice(0, 7);
};
const lastDayOf = (month: string) => {
  const d = new Date(`${addMonths(month, 1)}-01T00:00:00Z`);
  d.setUTCDate(0);
  return d.toISOString().slice(0, 10);
};

/** The rows to count: record_stats where the filters allow it, the records themselves where they do not. */
export function statisticsRows(filters: SearchFilters, visibility: Visibility, force?: StatisticsSource): { rows: SQL; source: StatisticsSource } {
  // Values longer than the trigger keeps cannot be told apart in record_stats.
  const tooLong = dimensionFilters(filters).some(({ values }) => values.some((v) => v.length > STATS_VALUE_MAX));
  // record_stats keeps no incident: an incident's people are few, counted live (records_incident_idx).
  if (force === 'live' || filters.q || tooLong || filters.incident) return { rows: liveRows(filters, visibility), source: 'live' };
  const { from, to } = filters;
  if (!from && !to) return { rows: aggregateRows(filters, visibility, {}), source: 'aggregate' };

  // Whole months inside [from, to] come from record_stats; the days of a partial month at either end are counted live.
  const parts: SQL[] = [];
  let firstWhole = from ? monthOf(from) : undefined;
  let lastWhole = to ? monthOf(to) : undefined;
  if (from && !from.endsWith('-01')) {
    firstWhole = addMonths(monthOf(from), 1);
    const edgeTo = to && to < lastDayOf(monthOf(from)) ? to : lastDayOf(monthOf(from));
    parts.push(liveRows({ ...filters, from, to: edgeTo }, visibility));
  }
  if (to && to !== lastDayOf(monthOf(to))) {
    lastWhole = addMonths(monthOf(to), -1);
    const edgeFrom = `${monthOf(to)}-01`;
    // The partial month of `to` is the partial month of `from` when both are in one month: counted once.
    if (!(from && monthOf(from) === monthOf(to) && !from.endsWith('-01'))) {
      parts.push(liveRows({ ...filters, from: from && from > edgeFrom ? from : edgeFrom, to }, visibility));
    }
  }
  if (!firstWhole || !lastWhole || firstWhole <= lastWhole) parts.push(aggregateRows(filters, visibility, { from: firstWhole, to: lastWhole }));
  return { rows: sql.join(parts, sql` union all `), source: 'aggregate' };
}
