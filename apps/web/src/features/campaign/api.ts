import { useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api';

/** The campaign's calls (base /api/v1.0.0): the directory, sending a letter and confirming it by the e-mailed link. */

export interface Representative {
  id: string;
  name: string;
  party: string | null;
  district: string;
  email: string | null;
  /** False when the representative has no usable e-mail: listed, but cannot be written to (with `note`). */
  available: boolean;
  note: string | null;
}

export interface Province {
  name: string;
  representatives: Representative[];
}

export interface Country {
  code: string;
  name: string;
  defaultMessage: string;
  provinces: Province[];
}

export type Directory = Country[];

export interface SubmittedLetter {
  _id: string;
  state: string;
  expiresAt: string;
  /** The server's words telling the sender to confirm by e-mail. */
  notice: string;
}

export interface LetterConfirmation {
  _id: string;
  /** awaiting_confirmation, confirmed, sent, expired or failed. */
  state: string;
  representative: { name: string; district: string };
}

export type LetterBody = Record<string, string>;

export const fetchDirectory = (signal?: AbortSignal) => request<Directory>('/campaign/directory', { signal });

/**
 * The directory (~28 KB gzipped) is fetched only once `wanted` turns true (the form came into view or was focused),
 * so the home page never waits for it. It changes rarely: keep it for the visit.
 */
export function useDirectory(wanted: boolean) {
  return useQuery({
    queryKey: ['campaign', 'directory'],
    queryFn: ({ signal }) => fetchDirectory(signal),
    enabled: wanted,
    staleTime: 10 * 60_000,
    gcTime: 60 * 60_000,
  });
}

export const sendLetter = (body: LetterBody) => request<SubmittedLetter>('/reports', { method: 'POST', body });

export const readConfirmation = (token: string, signal?: AbortSignal) =>
  request<LetterConfirmation>(`/campaign/confirm/${encodeURIComponent(token)}`, { signal });

export const confirmLetter = (token: string) =>
  request<LetterConfirmation>(`/campaign/confirm/${encodeURIComponent(token)}`, { method: 'POST', body: {} });
