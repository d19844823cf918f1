import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import {
  CATEGORY_SLUGS,
  REGION_CODES,
  STATISTICS_VICTIMIZERS_MAX,
  UNKNOWN_REGION,
  type CategorySlug,
  type SearchFilters,
  type StatisticsResponse,
} from '@app/shared';
import { rowsOf, type Db } from '../../db';
import { recordStats, records } from '../../db/schema';
import { filterConditions, searchColumns, textQuery, type Visibility } from '../search/filters';

/**
 * The statistics of the records matching the filters. Without `q` they are read from record_stats (trigger-kept
 * counts, a few thousand rows at any size); with `q` only the records themselves can say which match, so they are
 * counted live. Date filters on record_stats work by whole months: the part of a month at either end of the range is
 * counted live over those days (the records_search_date_idx index), the whole months between from record_stats.
 */

/** Where an answer's counts were read: the test of record_stats compares the two. */
export type StatisticsSource = 'aggregate' | 'live';

/** Same key expressions as the trigger (migration 0009_stats_triggers), over the live records. */
const liveKey = {
  region: sql`coalesce(${records.region}, '')`,
  month: sql`coalesce(to_char(${searchColumns.date} at time zone 'UTC', 'YYYY-MM'), '')`,
  victimizer: sql`left(coalesce(${records.victimizer}, ''), 300)`,
  killingType: sql`left(coalesce(${records.killingType}, ''), 300)`,
};

const inList = (column: SQLWrapper, values: readonly string[]) => sql`${column} in (${sql.join(values.map((v) => sql`${v}`), sql`, `)})`;

/** Rows (category, region, month, victimizer, killing_type, confirmed, n, quantity) of the live records matching `filters`. */
function liveRows(filters: SearchFilters, visibility: Visibility): SQL {
  const where = filterConditions(filters, visibility);
  if (filters.q) where.push(sql`${searchColumns.vector} @@ ${textQuery(filters.q)}`);
  return sql`select ${records.category} as category, ${liveKey.region} as region, ${liveKey.month} as month,
      ${liveKey.victimizer} as victimizer, ${liveKey.killingType} as killing_type, ${records.approved} as confirmed, 1::bigint as n, coalesce(${records.quantity}, 0)::bigint as quantity
    from ${records} where ${sql.join(where, sql` and `)}`;
}

/** Rows of record_stats matching every filter but the dates, within the months [fromMonth, toMonth] when given. */
function aggregateRows(filters: SearchFilters, { includePrivate }: Visibility, months: { from?: string; to?: string }): SQL {
  const s = recordStats;
  const where: SQL[] = [sql`${s.visibility} = ${includePrivate ? 'all' : 'public'}`, sql`${s.n} <> 0`];
  if (filters.category) where.push(inList(s.category, filters.category));
  if (filters.region) where.push(inList(s.region, filters.region.map((r) => (r === UNKNOWN_REGION ? '' : r))));
  if (filters.victimizer) where.push(inList(s.victimizer, filters.victimizer));
  if (filters.killingType) where.push(inList(s.killingType, filters.killingType));
  if (filters.confirmed) where.push(sql`${s.confirmed} = ${filters.confirmed === 'true'}`);
  // An undated record is in no date range.
  if (months.from || months.to) where.push(sql`${s.month} <> ''`);
  if (months.from) where.push(sql`${s.month} >= ${months.from}`);
  if (months.to) where.push(sql`${s.month} <= ${months.to}`);
  return sql`select ${s.category} as category, ${s.region} as region, ${s.month} as month, ${s.victimizer} as victimizer,
      ${s.killingType} as killing_type, ${s.confirmed} as confirmed, ${s.n} as n, ${s.quantity} as quantity from ${s} where ${sql.join(where, sql` and `)}`;
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
  // Values longer than the trigger keeps (300 characters) cannot be told apart in record_stats.
  const tooLong = [...(filters.victimizer ?? []), ...(filters.killingType ?? [])].some((v) => v.length > 300);
  if (force === 'live' || filters.q || tooLong) return { rows: liveRows(filters, visibility), source: 'live' };
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

interface GroupedRow {
  category: string | null;
  region: string | null;
  month: string | null;
  victimizer: string | null;
  by: 'category' | 'region' | 'month' | 'victimizer';
  n: string;
  quantity: string;
}

/** Counts the rows per category, region, month and perpetrator in one statement (grouping sets). */
export async function computeStatistics(
  db: Db,
  filters: SearchFilters,
  visibility: Visibility,
  force?: StatisticsSource,
): Promise<{ statistics: StatisticsResponse; source: StatisticsSource }> {
  const { rows, source } = statisticsRows(filters, visibility, force);
  const grouped = await rowsOf<GroupedRow>(
    db,
    sql`select category, region, month, victimizer,
        case when grouping(category) = 0 then 'category' when grouping(region) = 0 then 'region'
             when grouping(month) = 0 then 'month' else 'victimizer' end as by,
        sum(n)::text as n, sum(quantity)::text as quantity
      from (${rows}) as counted
      group by grouping sets ((category), (region), (month), (victimizer))`,
  );

  const byCategory = new Map<string, { n: number; quantity: number }>();
  const byRegion = new Map<string, number>();
  const months: StatisticsResponse['months'] = [];
  const victimizers: StatisticsResponse['victimizers'] = [];
  let undated = 0;
  for (const row of grouped) {
    const n = Number(row.n);
    if (n === 0) continue;
    if (row.by === 'category') byCategory.set(row.category!, { n, quantity: Number(row.quantity) });
    else if (row.by === 'region') byRegion.set(row.region || UNKNOWN_REGION, n);
    else if (row.by === 'month') {
      if (row.month) months.push({ month: row.month, count: n });
      else undated = n;
    } else victimizers.push({ victimizer: row.victimizer || null, count: n });
  }
  months.sort((a, b) => (a.month < b.month ? -1 : 1));
  // Most records first; equal counts by name, so the order does not change between two identical answers.
  victimizers.sort((a, b) => b.count - a.count || String(a.victimizer ?? '\uffff').localeCompare(String(b.victimizer ?? '\uffff')));
  const shown = victimizers.slice(0, STATISTICS_VICTIMIZERS_MAX);
  const categories = CATEGORY_SLUGS.map((category: CategorySlug) => ({ category, count: byCategory.get(category)?.n ?? 0 }));
  return {
    source,
    statistics: {
      total: categories.reduce((sum, c) => sum + c.count, 0),
      categories,
      killed: { massacreDeaths: byCategory.get('massacres')?.quantity ?? 0, victimRecords: byCategory.get('victims')?.n ?? 0 },
      months,
      undated,
      regions: [...REGION_CODES, UNKNOWN_REGION].map((region) => ({ region, count: byRegion.get(region) ?? 0 })),
      victimizers: shown,
      victimizersOther: victimizers.slice(STATISTICS_VICTIMIZERS_MAX).reduce((sum, v) => sum + v.count, 0),
    },
  };
}
