import { z } from 'zod';
import { REGION_CODES } from '../places/regions';
import { UUID_PATTERN } from '../ids';
import { isHttpUrl, sourcesSchema } from '../sources';
import { isInFuture } from '../future-dates';
import { dataFields } from './registry';
import { FIELD_LIMITS, type CategoryDef, type FieldDef } from './types';

/**
 * Input schemas generated from the registry. Multipart bodies carry every value as a string, so each field
 * accepts strings and converts them; an empty string means "no value".
 */

export { FUTURE_SKEW_MS } from '../future-dates';

const DATETIME_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Parses YYYY-MM-DD[THH:mm[:ss[.sss]]][Z|±hh:mm]; a value without zone is taken as UTC. Null when invalid. */
export function parseDateTime(value: string): Date | null {
  const m = DATETIME_RE.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) {
    return null;
  }
  // Reject days that roll over (Feb 30) by checking the calendar date in UTC.
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCMonth() !== month - 1) return null;
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}${zone ? normaliseZone(zone) : 'Z'}`;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  if (year < 1800 || year > 2200) return null;
  return date;
}

function normaliseZone(zone: string): string {
  if (zone === 'Z') return zone;
  return zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
}

/** Evidence links are joined by a comma and one space. */
export function splitUrlList(value: string): string[] {
  return value
    .split(/,\s*/)
    .map((s) => s.trim())
    .filter(Boolean);
}

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

function textSchema(max: number) {
  return z
    .string({ error: 'Must be text' })
    .trim()
    .max(max, { error: `Must be at most ${max} characters` });
}

export function fieldSchema(field: FieldDef): z.ZodType {
  switch (field.kind) {
    case 'text':
      return textSchema(field.max ?? FIELD_LIMITS.text);
    case 'markdown':
      return textSchema(field.max ?? FIELD_LIMITS.markdown);
    case 'url':
      return textSchema(field.max ?? FIELD_LIMITS.url).refine(isHttpUrl, {
        error: 'Must be a link starting with http:// or https://',
      });
    case 'urlList':
      return textSchema(field.max ?? FIELD_LIMITS.urlList)
        .refine((v) => splitUrlList(v).every(isHttpUrl), {
          error: 'Every link must start with http:// or https:// and links are separated by a comma and one space',
        })
        .transform((v) => splitUrlList(v).join(', '));
    case 'region':
      // An enum, so the OpenAPI document lists the codes.
      return z.enum(REGION_CODES, { error: 'Must be one of the listed regions' });
    case 'quantity':
      return z.union([z.string(), z.number()], { error: 'Must be a whole number' }).transform((v, ctx) => {
        const n = typeof v === 'number' ? v : /^\s*-?\d+\s*$/.test(v) ? Number(v) : Number.NaN;
        if (!Number.isInteger(n)) {
          ctx.addIssue({ code: 'custom', message: 'Must be a whole number' });
          return z.NEVER;
        }
        if (n < 0) {
          ctx.addIssue({ code: 'custom', message: 'Must be zero or more' });
          return z.NEVER;
        }
        if (n > FIELD_LIMITS.quantity) {
          ctx.addIssue({ code: 'custom', message: `Must be at most ${FIELD_LIMITS.quantity}` });
          return z.NEVER;
        }
        return n;
      });
    case 'datetime':
    case 'date':
      return z.union([z.string(), z.date()], { error: 'Must be a date and time' }).transform((v, ctx) => {
        const d = typeof v === 'string' ? parseDateTime(v) : v;
        if (!d || Number.isNaN(d.getTime())) {
          ctx.addIssue({ code: 'custom', message: 'Must be a valid date and time (YYYY-MM-DDTHH:mm:ss)' });
          return z.NEVER;
        }
        if (field.notInFuture && isInFuture(d, field.kind === 'date' ? 'day' : 'instant')) {
          ctx.addIssue({ code: 'custom', message: 'Must not be in the future' });
          return z.NEVER;
        }
        return d;
      });
    case 'incident':
      // Whether it names a record of a category it may link to is the server's check (records/links.ts).
      return z.string({ error: 'Must be the id of a record' }).trim().refine((v) => UUID_PATTERN.test(v), { error: 'Must be the id of a record' }).transform((v) => v.toLowerCase());
    case 'sources':
      return sourcesSchema;
    case 'coordinate':
      return coordinateSchema(field.axis === 'longitude' ? 180 : 90);
    case 'choice':
      return z.enum((field.options ?? []) as [string, ...string[]], { error: `Must be one of ${(field.options ?? []).join(', ')}` });
    default:
      throw new Error(`Field ${field.name} of kind ${field.kind} is an upload, not a data field`);
  }
}

/** Decimal degrees within ±bound (multipart sends them as text). */
function coordinateSchema(bound: number) {
  return z.union([z.string(), z.number()], { error: 'Must be a number of degrees' }).transform((v, ctx) => {
    const n = typeof v === 'number' ? v : /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : Number.NaN;
    if (!Number.isFinite(n)) {
      ctx.addIssue({ code: 'custom', message: 'Must be a number of degrees, such as 11.59' });
      return z.NEVER;
    }
    if (Math.abs(n) > bound) {
      ctx.addIssue({ code: 'custom', message: `Must be between -${bound} and ${bound}` });
      return z.NEVER;
    }
    return n;
  });
}

/** Values a create or edit stores, keyed by field name (dates as Date, quantities as number). */
export type RecordInput = Record<string, string | number | Date | readonly object[] | null | undefined>;

/**
 * Schema of a create call: required fields must be present and non-empty; optional empty fields are dropped.
 * With `partial`, every field may be omitted (edits keep what is not sent), an empty optional field clears it,
 * and a required field sent empty is an error.
 */
export function recordInputSchema(category: CategoryDef, { partial = false } = {}) {
  // Built once per category and kind: building one costs milliseconds, parsing with it a small fraction of that, and
  // the create path and an import's every row ask for it.
  const cached = builtSchemas.get(category)?.[partial ? 'partial' : 'full'];
  if (cached) return cached;
  const built = buildRecordInputSchema(category, partial);
  builtSchemas.set(category, { ...builtSchemas.get(category), [partial ? 'partial' : 'full']: built });
  return built;
}

const builtSchemas = new WeakMap<CategoryDef, { full?: ReturnType<typeof buildRecordInputSchema>; partial?: ReturnType<typeof buildRecordInputSchema> }>();

function buildRecordInputSchema(category: CategoryDef, partial: boolean) {
  const shape: Record<string, z.ZodType> = {};
  for (const field of dataFields(category)) {
    const base = fieldSchema(field);
    if (field.required) {
      const present = z.preprocess(emptyToUndefined, requiredValue.pipe(base));
      // An edit may leave a required field out (kept as stored) but may not blank it.
      shape[field.name] = partial ? z.unknown().optional().pipe(present.optional()) : present;
    } else {
      shape[field.name] = partial
        ? z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), base.nullable()).optional()
        : z.preprocess(emptyToUndefined, base.optional());
    }
  }
  return z.object(shape).strip();
}

const requiredValue = z.unknown().superRefine((v, ctx) => {
  if (v === undefined || v === null) ctx.addIssue({ code: 'custom', message: 'This field is required' });
});

/** Turns a zod error into the `{field: message}` body the API and forms use (first message per field). */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : '_form';
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}
