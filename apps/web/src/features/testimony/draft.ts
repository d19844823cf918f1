import type { RecordDto } from '@app/shared';

/** "Create a record from this" (recordDraft in packages/shared): kept in session storage for the add form to read once. */
export const DRAFT_KEY = 'testimony-record-draft';

/** The add form's starting values, and the testimony they came from (marked used once the record is made). */
export interface TestimonyDraft {
  draft: Partial<RecordDto>;
  testimonyId: string;
}

export function storeDraft(value: TestimonyDraft): void {
  sessionStorage.setItem(DRAFT_KEY, JSON.stringify(value));
}

/** The stored draft, removed as it is read: it starts one add form only. */
export function takeDraft(): TestimonyDraft | null {
  const text = sessionStorage.getItem(DRAFT_KEY);
  if (!text) return null;
  sessionStorage.removeItem(DRAFT_KEY);
  try {
    const value = JSON.parse(text) as Partial<TestimonyDraft>;
    return value.draft && typeof value.testimonyId === 'string' ? (value as TestimonyDraft) : null;
  } catch {
    return null;
  }
}
