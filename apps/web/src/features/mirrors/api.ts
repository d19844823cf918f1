import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { KnownMirror, KnownMirrorInput, KnownMirrors } from '@app/shared';
import { request } from '../../lib/api';

const KEY = ['mirrors'];

export function useKnownMirrors() {
  return useQuery({ queryKey: KEY, queryFn: ({ signal }) => request<KnownMirrors>('/mirrors', { signal }) });
}

export function useAddMirror() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: KnownMirrorInput) => request<KnownMirror>('/mirrors', { method: 'POST', body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

export function useRemoveMirror() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => request<void>(`/mirrors/${id}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}
