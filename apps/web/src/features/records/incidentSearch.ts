import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { INCIDENT_SUGGEST_Q_MAX, type IncidentSuggestResponse } from '@app/shared';
import { ApiError, request } from '../../lib/api';

/**
 * The incident picker's search (IncidentPicker.tsx): the massacres and events whose title, case number or place starts
 * as the editor types, or whose date is in a typed year, month or day, through GET /incidents/suggest. GET /search
 * matches whole words only, so a partly typed word would find nothing there.
 */

/** Characters typed before anything is asked: one letter would match most of the collection. */
export const MIN_SEARCH_CHARS = 2;
/** Quiet time after the last key before asking: one request per pause, not per letter. */
export const SEARCH_DEBOUNCE_MS = 250;
/** Options shown at once: a short list to arrow through; a longer text narrows it. */
const OPTION_LIMIT = 8;

/** The query string of the typed text, or null when too little is typed to ask. */
export function incidentSuggestParams(typed: string): URLSearchParams | null {
  const text = typed.trim().replace(/\s+/g, ' ').slice(0, INCIDENT_SUGGEST_Q_MAX);
  if (text.length < MIN_SEARCH_CHARS) return null;
  return new URLSearchParams({ q: text, limit: String(OPTION_LIMIT) });
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
  const params = incidentSuggestParams(settled);
  const qs = params?.toString() ?? '';
  const query = useQuery({
    // Under 'records' (the feature's root key): a record written in this tab is found at once.
    queryKey: ['records', 'incident-suggest', qs] as const,
    queryFn: ({ signal }) => request<IncidentSuggestResponse>(`/incidents/suggest?${qs}`, { signal }),
    enabled: params !== null,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: (failures, error) => failures < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
  });
  const asked = incidentSuggestParams(typed) !== null;
  return {
    asked,
    searching: asked && (settled !== typed.trim() || query.isFetching || query.isPlaceholderData),
    incidents: asked && params ? (query.data?.incidents ?? []) : [],
    error: asked ? query.error : null,
  };
}
