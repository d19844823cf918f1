import type { CategorySlug } from './categories/types';

/**
 * The answer of GET /statistics: counts of the records an anonymous visitor (or the signed-in reader) may read that
 * match the filters of the collection (searchFiltersSchema), for the charts, tables and map of /statistics and /map.
 */
export interface StatisticsResponse {
  /** Records matching the filters. */
  total: number;
  /** Per category, every category of the registry in its order (zero where none match). */
  categories: { category: CategorySlug; count: number }[];
  killed: {
    /** The sum of the people killed (`quantity`) of the matching massacres. */
    massacreDeaths: number;
    /** The number of matching victim records (one person each). */
    victimRecords: number;
  };
  /** Per month of the incident date (UTC, 'YYYY-MM'), oldest first; months without records are left out. */
  months: { month: string; count: number }[];
  /** Matching records without a date (counted in the total, in no month). */
  undated: number;
  /** Per region: every region code of the shared list, then 'unknown' (region not recorded). */
  regions: { region: string; count: number }[];
  /** Per perpetrator as recorded, most records first; null for records that name none. */
  victimizers: { victimizer: string | null; count: number }[];
  /** Records of the perpetrators beyond the first STATISTICS_VICTIMIZERS_MAX. */
  victimizersOther: number;
}

/** The most perpetrators /statistics lists; the rest are summed in `victimizersOther`. */
export const STATISTICS_VICTIMIZERS_MAX = 30;
