import type { SearchFilters } from './search';

/**
 * The filters' query string, kept apart from the filters' schema (search.ts): pages that only build links to the
 * search (statistics, the map) then load no schema library in the browser (the package declares no side effects, so
 * an unused module is left out of a page's code).
 */

/** The query parameters of the filters, in the order a URL writes them. */
const SEARCH_FILTER_PARAMS = ['q', 'category', 'region', 'victimizer', 'killingType', 'from', 'to', 'confirmed', 'incident'] as const;

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

/** The filters that take several values (`?region=amhara&region=afar`). */
const REPEATABLE_FILTERS: readonly string[] = ['category', 'region', 'victimizer', 'killingType'];

/**
 * The filters of an address (`?region=amhara&from=2021-01-01`), as written: trimmed, empty fields dropped (a form sent
 * without script sends them too), repeatable ones as arrays without repeats, sorted as the API sorts them. The API
 * validates them (and answers 400 naming the field), so the browser needs no schema library for them.
 */
export function filtersFromSearchParams(params: URLSearchParams): Partial<SearchFilters> {
  const filters: Record<string, string | string[]> = {};
  for (const name of SEARCH_FILTER_PARAMS) {
    const values = params
      .getAll(name)
      .map((v) => v.trim())
      .filter(Boolean);
    if (values.length) filters[name] = REPEATABLE_FILTERS.includes(name) ? [...new Set(values)].sort() : values[0]!;
  }
  return filters as Partial<SearchFilters>;
}
