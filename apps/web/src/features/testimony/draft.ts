import type { RecordDto } from '@app/shared';

/** "Create a record from this" (recordDraft in packages/shared): kept in session storage for the add form to read once. */
export const DRAFT_KEY = 'testimony-record-draft';

export function storeDraft(draft: Partial<RecordDto>): void {
  sessionStorage.setItem(DRAFT_KEY, JSON.stringify(draft));
}

/** The stored draft, removed as it is read: it starts one add form only. */
export function takeDraft(): Partial<RecordDto> | null {
  const text = sessionStorage.getItem(DRAFT_KEY);
  if (!text) return null;
  sessionStorage.removeItem(DRAFT_KEY);
  try {
    return JSON.parse(text) as Partial<RecordDto>;
  } catch {
    return null;
  }
}
