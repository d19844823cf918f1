import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { filtersToSearchParams, INCIDENT_CATEGORIES, type SearchFilters, type SearchResponse } from '@app/shared';
import { ApiError, request } from '../../lib/api';

/**
 * The incident picker's search (IncidentPicker.tsx): the massacres and events matching what the editor types, through
 * GET /search (titles, case numbers and places are among its searched fields). A date typed as 2021, 2021-03 or
 * 2021-03-15 is searched as that period of the incident date instead, which the words would not find.
 */

/** Characters typed before anything is asked: one letter would match most of the collection. */
export const MIN_SEARCH_CHARS = 2;
/** Quiet time after the last key before asking: one request per pause, not per letter. */
export const SEARCH_DEBOUNCE_MS = 250;
/** Options shown at once: a short list to arrow through; a longer text narrows it. */
const OPTION_LIMIT = 8;

const YEAR = /^(\d{4})$/;
const MONTH = /^(\d{4})-(\d{2})$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const pad = (n: number) => String(n).padStart(2, '0');

/** The days a typed year, month or day covers (the search's from/to filters), or null when it is not a date. */
export function typedPeriod(text: string): { from: string; to: string } | null {
  if (YEAR.test(text)) return { from: `${text}-01-01`, to: `${text}-12-31` };
  const month = MONTH.exec(text);
  if (month) {
    const [year, m] = [Number(month[1]), Number(month[2])];
    if (m < 1 || m > 12) return null;
    // Day 0 of the next month: the last day of this one.
    return { from: `${text}-01`, to: `${text}-${pad(new Date(Date.UTC(year, m, 0)).getUTCDate())}` };
  }
  const day = DAY.exec(text);
  if (day && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text)) return { from: text, to: text };
  return null;
}

/** The search filters of the typed text, or null when too little is typed to ask. */
export function incidentFilters(typed: string): Partial<SearchFilters> | null {
  const text = typed.trim();
  if (text.length < MIN_SEARCH_CHARS) return null;
  const category = [...INCIDENT_CATEGORIES].sort() as SearchFilters['category'];
  return { category, ...(typedPeriod(text) ?? { q: text }) };
}

/** `value`, once it has stayed the same for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The matches of `typed`, asked once typing pauses. `searching` while the answer to the latest text is not in yet (the
 * previous options stay listed meanwhile, so the list does not flicker).
 */
export function useIncidentSearch(typed: string) {
  const settled = useDebounced(typed.trim(), SEARCH_DEBOUNCE_MS);
  const filters = incidentFilters(settled);
  const params = filtersToSearchParams(filters ?? {});
  params.set('limit', String(OPTION_LIMIT));
  const qs = params.toString();
  const query = useQuery({
    // Under 'records' (the feature's root key): a record written in this tab is found at once.
    queryKey: ['records', 'search', 'incidents', qs] as const,
    queryFn: ({ signal }) => request<SearchResponse>(`/search?${qs}`, { signal }),
    enabled: filters !== null,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: (failures, error) => failures < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
  });
  const asked = incidentFilters(typed) !== null;
  return {
    asked,
    searching: asked && (settled !== typed.trim() || query.isFetching || query.isPlaceholderData),
    records: asked && filters ? (query.data?.hits.map((hit) => hit.record) ?? []) : [],
    error: asked ? query.error : null,
  };
}
