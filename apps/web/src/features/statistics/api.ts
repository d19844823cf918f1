import { useQuery } from '@tanstack/react-query';
import { filtersToSearchParams, searchFiltersSchema, SEARCH_FILTER_PARAMS, type SearchFilters, type StatisticsResponse } from '@app/shared';
import { request } from '../../lib/api';

/**
 * The filters of the address (`?region=amhara&from=2021-01-01`), read as the API reads them. Invalid ones are passed
 * on as they are: the API answers 400 with the field at fault, and the page shows it.
 */
export function filtersFromParams(params: URLSearchParams): { filters: Partial<SearchFilters>; valid: boolean } {
  const raw: Record<string, string | string[]> = {};
  for (const name of SEARCH_FILTER_PARAMS) {
    // A form sent without script sends its empty fields too: an empty field is no filter.
    const values = params.getAll(name).filter((v) => v.trim() !== '');
    if (values.length) raw[name] = values.length === 1 ? values[0]! : values;
  }
  const parsed = searchFiltersSchema.safeParse(raw);
  return parsed.success ? { filters: parsed.data, valid: true } : { filters: raw as Partial<SearchFilters>, valid: false };
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
