import { useQuery } from '@tanstack/react-query';
import { filtersToSearchParams, SEARCH_FILTER_PARAMS, type SearchFilters, type StatisticsResponse } from '@app/shared';
import { request } from '../../lib/api';

/** The filters that take several values (`?region=amhara&region=afar`). */
const REPEATABLE = new Set<string>(['category', 'region', 'victimizer', 'killingType']);

/**
 * The filters of the address (`?region=amhara&from=2021-01-01`), as written: the API validates them (and answers 400
 * with the field at fault, which the page shows), so the browser needs no schema library for them.
 */
export function filtersFromParams(params: URLSearchParams): Partial<SearchFilters> {
  const filters: Record<string, string | string[]> = {};
  for (const name of SEARCH_FILTER_PARAMS) {
    // A form sent without script sends its empty fields too: an empty field is no filter.
    const values = params.getAll(name).map((v) => v.trim()).filter(Boolean);
    if (values.length) filters[name] = REPEATABLE.has(name) ? [...new Set(values)].sort() : values[0]!;
  }
  return filters as Partial<SearchFilters>;
}

export function useStatistics(filters: Partial<SearchFilters>) {
  const query = filtersToSearchParams(filters).toString();
  return useQuery({
    queryKey: ['statistics', query],
    queryFn: ({ signal }) => request<StatisticsResponse>(`/statistics${query ? `?${query}` : ''}`, { signal }),
  });
}

/** The search page's address for the current filters with one facet set to `change` (a bar's or a region's). */
export function searchHref(filters: Partial<SearchFilters>, change: Partial<SearchFilters>): string {
  const query = filtersToSearchParams({ ...filters, ...change }).toString();
  return query ? `/search?${query}` : '/search';
}
