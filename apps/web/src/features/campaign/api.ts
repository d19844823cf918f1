import { useQuery } from '@tanstack/react-query';
import type { CampaignCountry, CampaignProvince, LetterConfirmation, Representative, SubmittedLetter } from '@app/shared';
import { request } from '../../lib/api';

/** The campaign's calls (base /api/v1.0.0): the directory, sending a letter and confirming it by the e-mailed link. */

export type { LetterConfirmation, Representative };
export type Province = CampaignProvince;
export type Country = CampaignCountry;
export type Directory = Country[];

type LetterBody = Record<string, string>;

const fetchDirectory = (signal?: AbortSignal) => request<Directory>('/campaign/directory', { signal });

/**
 * The directory (tens of KB) is fetched only once `wanted` turns true (the form came into view or was focused),
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
