import { useQuery } from '@tanstack/react-query';
import { API_BASE, type ImportCheck, type ImportMapping, type ImportProgress } from '@app/shared';
import { request, requestPage, upload } from '../../lib/api';
import { session } from '../../lib/session';

/** The import screen's calls (docs/import.md). */

export function checkImport(file: File, category: string, mapping: ImportMapping | undefined, onProgress: (percent: number) => void) {
  const form = new FormData();
  form.set('category', category);
  if (mapping) form.set('mapping', JSON.stringify(mapping));
  form.set('file', file);
  return upload<ImportCheck>('/imports', form, { onProgress });
}

export function commitImport(id: string, duplicates: 'skip' | 'create' | 'link') {
  return request<ImportProgress>(`/imports/${encodeURIComponent(id)}/commit`, { method: 'POST', body: { duplicates } });
}

export function cancelImport(id: string) {
  return request<ImportProgress>(`/imports/${encodeURIComponent(id)}/cancel`, { method: 'POST' });
}

export function trashImport(id: string) {
  return request<{ trashed: number }>(`/imports/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function saveMapping(category: string, name: string, mapping: ImportMapping) {
  return request('/imports/mappings', { method: 'POST', body: { category, name, mapping } });
}

export interface SavedMapping {
  id: string;
  name: string;
  mapping: ImportMapping;
}

export function useSavedMappings(category: string) {
  return useQuery({
    queryKey: ['imports', 'mappings', category],
    queryFn: ({ signal }) => request<SavedMapping[]>('/imports/mappings', { query: { category }, signal }),
  });
}

export interface ProblemRow {
  row: number;
  kind: 'error' | 'duplicate';
  field: string;
  message: string;
}

export function useProblems(id: string, offset: number, limit: number) {
  return useQuery({
    queryKey: ['imports', id, 'problems', offset],
    queryFn: ({ signal }) => requestPage<ProblemRow>(`/imports/${encodeURIComponent(id)}/problems`, { query: { limit, offset }, signal }),
  });
}

/** The job's progress, asked again every second while it runs. */
export function useProgress(id: string | null) {
  return useQuery({
    queryKey: ['imports', id, 'progress'],
    queryFn: ({ signal }) => request<ImportProgress>(`/imports/${encodeURIComponent(id!)}`, { signal }),
    enabled: Boolean(id),
    refetchInterval: (query) => (['queued', 'running'].includes(query.state.data?.status ?? 'queued') ? 1000 : false),
  });
}

/** Downloads the problems as CSV: a signed-in call, so fetched and handed to the browser as a file. */
export async function downloadProblems(id: string): Promise<void> {
  const s = session.get();
  const res = await fetch(`${API_BASE}/imports/${encodeURIComponent(id)}/problems.csv`, { headers: s ? { authorization: `Bearer ${s.token}` } : {}, credentials: 'same-origin' });
  if (!res.ok) throw new Error(`Request failed (${res.status})`);
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `import-${id.slice(0, 8)}-problems.csv`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
