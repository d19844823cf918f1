import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TestimonyDetail, TestimonyStatus } from '@app/shared';
import { API_BASE } from '@app/shared';
import { request } from '../../lib/api';
import { session } from '../../lib/session';

/** The reviewers' calls (docs/testimony.md): key state, unlock, the queue, one testimony, a question, its state. */

export interface KeyState {
  exists: boolean;
  wrapped: boolean;
  unlocked: boolean;
}

export interface QueueItem {
  id: string;
  status: TestimonyStatus;
  unverified: boolean;
  files: number;
  messages: number;
  sealedBytes: number;
  recordId: string | null;
  createdAt: string;
}

export const useKeyState = () => useQuery({ queryKey: ['testimony-key'], queryFn: () => request<KeyState>('/testimonies/key') });

export const useQueue = (status: TestimonyStatus | '', enabled: boolean) =>
  useQuery({ queryKey: ['testimonies', status], queryFn: () => request<QueueItem[]>('/testimonies', { query: { status } }), enabled });

export const useTestimony = (id: string | null) =>
  useQuery({ queryKey: ['testimony', id], queryFn: () => request<TestimonyDetail>(`/testimonies/${id}`), enabled: Boolean(id) });

export function useReviewAction<V>(call: (vars: V) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['testimony-key'] });
      void client.invalidateQueries({ queryKey: ['testimonies'] });
      void client.invalidateQueries({ queryKey: ['testimony'] });
    },
  });
}

export const unlock = (body: { passphrase: string; recoveryKey?: string }) => request('/testimonies/unlock', { method: 'POST', body });
export const lock = () => request('/testimonies/lock', { method: 'POST' });
export const createKey = (body: { passphrase: string }) => request<{ recoveryKey: string }>('/testimonies/key', { method: 'POST', body });
export const ask = ({ id, text }: { id: string; text: string }) => request(`/testimonies/${id}/messages`, { method: 'POST', body: { text } });
export const setStatus = ({ id, status, recordId }: { id: string; status: TestimonyStatus; recordId?: string }) =>
  request(`/testimonies/${id}/status`, { method: 'PUT', body: { status, ...(recordId ? { recordId } : {}) } });

/** A file decrypted by the server, fetched with the session's token and saved under its own name. */
export async function downloadFile(id: string, file: { id: string; name: string }): Promise<void> {
  const token = session.get()?.token;
  const res = await fetch(`${API_BASE}/testimonies/${id}/files/${file.id}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!res.ok) throw new Error(`download failed (${res.status})`);
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = file.name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
