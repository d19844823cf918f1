import { ApiError } from '../../lib/api';

export interface SplitErrors<F extends string> {
  fields: Partial<Record<F, string>>;
  general: string[];
}

/**
 * Splits a failed send into errors under the form's fields and the rest. Only a 400 carries field errors: its
 * `message` key is the letter field; on a 429 or 503 `message` is the server's general explanation.
 */
export function splitErrors<F extends string>(error: unknown, fields: readonly F[]): SplitErrors<F> {
  const result: SplitErrors<F> = { fields: {}, general: [] };
  if (!(error instanceof ApiError)) {
    result.general.push(error instanceof Error ? error.message : String(error));
    return result;
  }
  if (error.status === 400) {
    for (const [key, message] of Object.entries(error.fields)) {
      if (typeof message !== 'string') continue;
      if ((fields as readonly string[]).includes(key)) result.fields[key as F] = message;
      else result.general.push(message);
    }
  }
  if (Object.keys(result.fields).length === 0 && result.general.length === 0) result.general.push(error.message);
  return result;
}
