import type { CategoryDef, RecordDto, TestimonyDetail } from '@app/shared';

/**
 * "Create a record from this": the add form's starting values, driven by the category's registry fields. The place
 * fields the category has are filled; the testimony itself goes in as a source of kind `witness`, withheld, so
 * nothing of it is public until a reviewer decides. Kept in session storage for the add form to read once.
 */
export const DRAFT_KEY = 'testimony-record-draft';

export function recordDraft(category: CategoryDef, testimony: TestimonyDetail): Partial<RecordDto> {
  const { envelope } = testimony;
  const place: Record<string, string> = { region: envelope.region, zone: envelope.zone, woreda: envelope.woreda };
  const draft: Record<string, unknown> = {};
  for (const field of category.fields) {
    if (field.name in place && place[field.name]) draft[field.name] = place[field.name];
    if (field.kind === 'sources') {
      const note = [envelope.statement, envelope.happenedOn && `When: ${envelope.happenedOn}`, envelope.place && `Where: ${envelope.place}`, envelope.people && `Who: ${envelope.people}`]
        .filter(Boolean)
        .join('\n\n');
      draft[field.name] = [{ kind: 'witness', title: `Witness testimony ${testimony.id.slice(0, 8)} (${testimony.createdAt.slice(0, 10)})`, note: note.slice(0, 2000), withheld: true }];
    }
  }
  return draft as Partial<RecordDto>;
}

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
