import { SEARCH_FILTER_PARAMS, type SearchFilters } from '@app/shared';

/**
 * The cache key's values of validated filters: a repeated parameter is sorted and written as JSON, so a value holding
 * a comma ("A, B") is not read as two, and `?region=b&region=a` is the entry of `?region=a&region=b`.
 */
export function filtersCacheQuery(filters: SearchFilters): Record<string, string | undefined> {
  const query: Record<string, string | undefined> = {};
  for (const name of SEARCH_FILTER_PARAMS) {
    const value = filters[name];
    query[name] = value === undefined ? undefined : Array.isArray(value) ? JSON.stringify(value) : value;
  }
  return query;
}
