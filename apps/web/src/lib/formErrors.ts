import { ApiError } from './api';

interface FormErrors<F extends string> {
  /** Messages to show under the form's own fields. */
  fields: Partial<Record<F, string>>;
  /** Everything else, to show above the form. */
  general: string[];
}

/**
 * Statuses whose body is keyed by field name: refused input (400), a conflict such as an address in use (409), a file
 * over its size limit (413). On others (401, 429, 503...) `message` is the server's general explanation, even where a
 * form has a field called `message` (the campaign letter).
 */
const FIELD_STATUSES = new Set([400, 409, 413]);

/** Splits a failed request into errors under the form's fields and the rest; never loses a message. */
export function formErrors<F extends string>(error: unknown, fields: Iterable<F>): FormErrors<F> {
  const result: FormErrors<F> = { fields: {}, general: [] };
  if (!(error instanceof ApiError)) {
    result.general.push(error instanceof Error ? error.message : String(error));
    return result;
  }
  const known = new Set<string>(fields);
  if (FIELD_STATUSES.has(error.status)) {
    for (const [key, message] of Object.entries(error.fields)) {
      if (typeof message !== 'string') continue;
      if (known.has(key)) result.fields[key as F] = message;
      else result.general.push(message);
    }
  }
  if (Object.keys(result.fields).length === 0 && result.general.length === 0) result.general.push(error.message);
  return result;
}
