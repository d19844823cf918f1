import type { CategoryDef } from './categories/types';
import type { RecordDto } from './contract';
import type { TestimonyDetail } from './testimony';

/**
 * "Create a record from this": the add form's starting values, driven by the category's registry fields. The place
 * fields the category has are filled; the testimony itself goes in as a source of kind `witness`, withheld, so
 * nothing of it is public until a reviewer decides. Shared so that the server's tests check what the form is given.
 */
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
