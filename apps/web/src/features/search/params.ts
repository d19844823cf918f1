import { filtersFromSearchParams, filtersToSearchParams, type SearchFilters } from '@app/shared';

/** The search's state as the URL holds it: the filters, and the keyset position of the page shown. */
export interface SearchState {
  filters: Partial<SearchFilters>;
  cursor: string | null;
}

/** The search's state in a URL's query string: its filters (as the shared reader takes them) and the page's cursor. */
export function stateFromParams(params: URLSearchParams): SearchState {
  return { filters: filtersFromSearchParams(params), cursor: params.get('cursor') || null };
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
