import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { SearchResponse } from '@app/shared';
import { ApiError, request } from '../../lib/api';
import { paramsOfState, type SearchState } from './params';

/** Results per page: as many as a list page shows. */
const SEARCH_PAGE_SIZE = 12;

/**
 * Keyed under 'records' (the records feature's root key), so a record written in this tab refreshes the search as it
 * refreshes the lists.
 */
const searchQuery = (state: SearchState) => {
  const params = paramsOfState(state);
  params.set('limit', String(SEARCH_PAGE_SIZE));
  const qs = params.toString();
  return queryOptions({
    queryKey: ['records', 'search', qs] as const,
    queryFn: ({ signal }) => request<SearchResponse>(`/search?${qs}`, { signal }),
    placeholderData: keepPreviousData,
    // A refused address (400) is answered the same every time: shown at once instead of asked again.
    retry: (failures, error) => failures < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
  });
};

export const useSearch = (state: SearchState) => useQuery(searchQuery(state));
