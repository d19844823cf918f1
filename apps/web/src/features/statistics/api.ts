import { useQuery } from '@tanstack/react-query';
import { filtersFromSearchParams, filtersToSearchParams, type MapPointsResponse, type SearchFilters, type StatisticsResponse } from '@app/shared';
import { request } from '../../lib/api';

/** The filters of the address (shared with the search page's reader). */
export const filtersFromParams = filtersFromSearchParams;

export function useStatistics(filters: Partial<SearchFilters>) {
  const query = filtersToSearchParams(filters).toString();
  return useQuery({
    queryKey: ['statistics', query],
    queryFn: ({ signal }) => request<StatisticsResponse>(`/statistics${query ? `?${query}` : ''}`, { signal }),
  });
}

/** The massacres and events with coordinates matching the filters, for the map's points. */
export function useMapPoints(filters: Partial<SearchFilters>) {
  const query = filtersToSearchParams(filters).toString();
  return useQuery({
    queryKey: ['mapPoints', query],
    queryFn: ({ signal }) => request<MapPointsResponse>(`/statistics/points${query ? `?${query}` : ''}`, { signal }),
  });
}

/** The search page's address for the current filters with one facet set to `change` (a bar's or a region's). */
export function searchHref(filters: Partial<SearchFilters>, change: Partial<SearchFilters>): string {
  const query = filtersToSearchParams({ ...filters, ...change }).toString();
  return query ? `/search?${query}` : '/search';
}
