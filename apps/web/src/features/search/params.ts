import { SEARCH_FILTER_PARAMS, filtersToSearchParams, type SearchFilters } from '@app/shared';

/** The search's state as the URL holds it: the filters, and the keyset position of the page shown. */
export interface SearchState {
  filters: Partial<SearchFilters>;
  cursor: string | null;
}

const REPEATABLE = new Set<string>(['category', 'region', 'victimizer', 'killingType']);

/**
 * The filters of a URL's query string, as given (the API validates them and answers 400 for a bad one): repeatable
 * ones as arrays, without repeats or empty values, sorted as the API sorts them.
 */
export function stateFromParams(params: URLSearchParams): SearchState {
  const filters: Record<string, string | string[]> = {};
  for (const name of SEARCH_FILTER_PARAMS) {
    if (REPEATABLE.has(name)) {
      const values = [...new Set(params.getAll(name).filter(Boolean))].sort();
      if (values.length) filters[name] = values;
    } else {
      const value = params.get(name)?.trim();
      if (value) filters[name] = value;
    }
  }
  return { filters: filters as Partial<SearchFilters>, cursor: params.get('cursor') || null };
}

/** The query string of a state: the filters in a fixed order, then the cursor. One state has one spelling. */
export function paramsOfState({ filters, cursor }: SearchState): URLSearchParams {
  const params = filtersToSearchParams(filters);
  if (cursor) params.set('cursor', cursor);
  return params;
}

/** The filters with one value of a repeatable filter added or taken away (a new search: back to the first page). */
export function toggled(filters: Partial<SearchFilters>, name: 'category' | 'region' | 'victimizer' | 'killingType', value: string, on: boolean): SearchState {
  const current = (filters[name] as string[] | undefined) ?? [];
  const next = on ? [...new Set([...current, value])].sort() : current.filter((v) => v !== value);
  return { filters: { ...filters, [name]: next.length ? next : undefined }, cursor: null };
}
