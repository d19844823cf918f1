import type { SearchFilters } from './search';

/**
 * The filters' query string, kept apart from the filters' schema (search.ts): pages that only build links to the
 * search (statistics, the map) then load no schema library in the browser (the package declares no side effects, so
 * an unused module is left out of a page's code).
 */

/** The query parameters of the filters, in the order a URL writes them. */
export const SEARCH_FILTER_PARAMS = ['q', 'category', 'region', 'victimizer', 'killingType', 'from', 'to', 'confirmed'] as const;

/** The query string of `filters` (for links between search, statistics, the map and the export). */
export function filtersToSearchParams(filters: Partial<SearchFilters>): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of SEARCH_FILTER_PARAMS) {
    const value = filters[name];
    if (value === undefined || value === '') continue;
    for (const one of Array.isArray(value) ? value : [value]) params.append(name, String(one));
  }
  return params;
}
