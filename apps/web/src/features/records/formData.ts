import dayjs from 'dayjs';
import { dataFields, fieldErrors, isDateKind, recordInputSchema, uploadFields, type CategoryDef, type FieldDef } from '@app/shared';

/** The multipart name of an upload field: several images go as `files[]`, single files as their name. */
export const uploadName = (field: FieldDef) => (field.kind === 'images' ? 'files[]' : field.name);

/** A datetime-local value (YYYY-MM-DDTHH:mm[:ss], local time) as ISO 8601 with the browser's offset. */
export function localToIso(value: string): string {
  if (!value.trim()) return '';
  const d = dayjs(value);
  return d.isValid() ? d.format('YYYY-MM-DDTHH:mm:ssZ') : value;
}

/**
 * The multipart body of a create or edit, built from the form in registry order: text fields first (the server
 * validates them before storing files), then the chosen files. Empty file inputs are left out.
 */
export function recordFormData(category: CategoryDef, formElement: HTMLFormElement): FormData {
  const source = new FormData(formElement);
  const body = new FormData();
  for (const field of dataFields(category)) {
    const raw = source.get(field.name);
    const value = typeof raw === 'string' ? raw : '';
    body.append(field.name, isDateKind(field.kind) ? localToIso(value) : value);
  }
  for (const field of uploadFields(category)) {
    const name = uploadName(field);
    for (const file of source.getAll(name)) {
      if (file instanceof File && (file.size > 0 || file.name !== '')) body.append(name, file);
    }
  }
  return body;
}

/** The server's error for a field: upload fields may come back under their multipart name. */
export function errorFor(errors: Record<string, string>, field: FieldDef): string | undefined {
  return errors[field.name] ?? errors[uploadName(field)];
}

/**
 * The server's own check of the text fields (the shared schema), run before a question that promises an upload, so
 * the video form asks "Uploading the video..." only about a form the server would take. Keyed by field name; null
 * when nothing is wrong. The server checks again: this only spares an editor a confirmation of a refused form.
 */
export function fieldProblems(category: CategoryDef, body: FormData, { editing = false } = {}): Record<string, string> | null {
  const text = Object.fromEntries([...body.entries()].filter(([, value]) => typeof value === 'string'));
  const checked = recordInputSchema(category, { partial: editing }).safeParse(text);
  return checked.success ? null : fieldErrors(checked.error);
}
