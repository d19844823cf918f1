import { sql } from 'drizzle-orm';
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
import type { Visibility } from '../collection/filters';
import { statisticsRows, type StatisticsSource } from '../collection/stats-rows';

export type { StatisticsSource };

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
