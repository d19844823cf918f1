import { z } from 'zod';
import { isInFuture } from './future-dates';

/**
 * The sources a record cites (issue 39 item 2), after Every Casualty Worldwide's Standards for Casualty Recording
 * (every record names its sources, and the kind of each) and HURIDOCS Events' "Source" (kind, date, language).
 */
export const SOURCE_KINDS = ['witness', 'media', 'ngo', 'official', 'social', 'photo-video', 'other'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** Most sources one record cites. */
export const SOURCES_MAX = 50;

/** A day, a month or a year (ISO 8601 reduced precision): a report is often dated by its month only. */
const SOURCE_DATE_RE = /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/;
const SOURCE_DATE_MESSAGE = 'Date must be YYYY, YYYY-MM or YYYY-MM-DD (such as 2021, 2021-03 or 2021-03-15)';
/** Whether a source's date (a year, a month or a day) begins after today: a report cannot be dated ahead. */
function isFutureSourceDate(date: string): boolean {
  const [year, month = 1, day = 1] = date.split('-').map(Number);
  return isInFuture(new Date(Date.UTC(year!, month - 1, day)), 'day');
}
/** A BCP 47 language tag, short form ("am", "en", "om", "ti", "en-GB"). */
const LANGUAGE_RE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** `tooLong` where a length alone would not tell the editor what to type (a date is a shape, not a number of letters). */
const optionalText = (max: number, tooLong = `Must be at most ${max} characters`) =>
  z
    .string({ error: 'Must be text' })
    .trim()
    .max(max, { error: tooLong })
    .optional()
    .nullable()
    .transform((v) => (v ? v : undefined));

/** An absolute http(s) address with a host: what a record may cite or link. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export const sourceSchema = z
  .object({
    kind: z.enum(SOURCE_KINDS, { error: `Kind must be one of ${SOURCE_KINDS.join(', ')}` }),
    title: z.string({ error: 'Title is required' }).trim().min(1, { error: 'Title is required' }).max(300, { error: 'Title must be at most 300 characters' }),
    publisher: optionalText(200),
    date: optionalText(10, SOURCE_DATE_MESSAGE)
      .refine((v) => v === undefined || SOURCE_DATE_RE.test(v), { error: SOURCE_DATE_MESSAGE })
      .refine((v) => v === undefined || !SOURCE_DATE_RE.test(v) || !isFutureSourceDate(v), { error: 'Date must not be in the future' }),
    url: optionalText(2000).refine((v) => v === undefined || isHttpUrl(v), { error: 'Link must start with http:// or https://' }),
    language: optionalText(20).refine((v) => v === undefined || LANGUAGE_RE.test(v), { error: 'Language must be a code such as am, en, om or ti' }),
    note: optionalText(2000),
    /** A witness's testimony kept from the public for the witness's safety: its details go to the record's editors only. */
    withheld: z.boolean({ error: 'Withheld must be true or false' }).optional().transform((v) => (v ? true : undefined)),
  })
  .strip()
  .refine((s) => !s.withheld || s.kind === 'witness', { error: 'Only a witness testimony can be withheld' });

export interface Source {
  kind: SourceKind;
  title: string;
  publisher?: string;
  /** YYYY, YYYY-MM or YYYY-MM-DD. */
  date?: string;
  url?: string;
  /** BCP 47 language tag. */
  language?: string;
  note?: string;
  withheld?: true;
  /**
   * Who, besides staff, may read a withheld testimony's details, when it is not the record's owner: set by the server
   * (never taken from a request) when a merge moves the testimony to another person's record, so that the merge
   * widens nobody's reading (docs/duplicates.md). NO_WITHHELD_AUTHOR: staff only.
   */
  authorId?: string;
}

/** The fields of a source, in the order the schema lists them (and a stored source keeps them). */
export const SOURCE_FIELDS = ['kind', 'title', 'publisher', 'date', 'url', 'language', 'note', 'withheld'] as const;
export type SourceField = (typeof SOURCE_FIELDS)[number];

/**
 * The message of a refused source, keyed `sources` like every field error: which source (counted from 1) and, when one
 * field is wrong, which, so the web form can show it beside that input ("Source 2 (url): Link must start with...").
 */
export function sourceErrorMessage(index: number, field: PropertyKey | undefined, message: string): string {
  const named = typeof field === 'string' && (SOURCE_FIELDS as readonly string[]).includes(field) ? ` (${field})` : '';
  return `Source ${index + 1}${named}: ${message}`;
}

/** A `sources` error read back: the source's index (from 0), its field if one was named, and the message alone. */
export function parseSourceError(text: string): { index: number; field?: SourceField; message: string } | null {
  const match = /^Source (\d+)(?: \((\w+)\))?: ([\s\S]*)$/.exec(text);
  if (!match) return null;
  const field = (SOURCE_FIELDS as readonly string[]).includes(match[2] ?? '') ? (match[2] as SourceField) : undefined;
  return { index: Number(match[1]) - 1, ...(field ? { field } : {}), message: match[3]! };
}

/** The value of a `sources` field: an array, or (multipart) the same array as JSON text; empty text is none. */
export const sourcesSchema = z.unknown().transform((value, ctx): Source[] => {
  let list = value;
  if (typeof value === 'string') {
    if (!value.trim()) return [];
    try {
      list = JSON.parse(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'Must be a JSON array of sources' });
      return z.NEVER;
    }
  }
  if (list === null || list === undefined) return [];
  if (!Array.isArray(list)) {
    ctx.addIssue({ code: 'custom', message: 'Must be an array of sources' });
    return z.NEVER;
  }
  if (list.length > SOURCES_MAX) {
    ctx.addIssue({ code: 'custom', message: `At most ${SOURCES_MAX} sources` });
    return z.NEVER;
  }
  const out: Source[] = [];
  for (const [i, item] of list.entries()) {
    const parsed = sourceSchema.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      ctx.addIssue({ code: 'custom', message: sourceErrorMessage(i, issue?.path[0], issue?.message ?? 'not valid') });
      return z.NEVER;
    }
    out.push(Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined)) as unknown as Source);
  }
  return out;
});

/** What the public is shown of a withheld testimony: that it exists, nothing of it. */
export const WITHHELD_SOURCE: Source = { kind: 'witness', title: 'Witness testimony, withheld for the witness\'s safety', withheld: true };

/** The `authorId` of a withheld testimony that came from a record with no owner: nobody but staff reads it. */
export const NO_WITHHELD_AUTHOR = '00000000-0000-0000-0000-000000000000';

/** The account that may read a withheld testimony's details besides staff: its author, else the record's owner. */
export function withheldReaderOf(source: Source, record: { userId?: string | null }): string | null {
  return source.authorId ?? record.userId ?? null;
}

/** Whether `source` is what a reader who may not read a withheld testimony is shown of it (sent back by an edit). */
export function isWithheldPlaceholder(source: Source): boolean {
  return (
    source.withheld === true &&
    source.kind === WITHHELD_SOURCE.kind &&
    source.title === WITHHELD_SOURCE.title &&
    !source.publisher && !source.date && !source.url && !source.language && !source.note
  );
}

/** The sources as a reader who may not see withheld testimony is shown them. */
export function publicSources(sources: readonly Source[] | null | undefined): Source[] {
  return (sources ?? []).map((s) => (s.withheld ? WITHHELD_SOURCE : s));
}

/**
 * Every source a record cites, for the detail page's numbered list and for exports' source counts: its `sources`,
 * then the links of a massacre's `evidence` (kept as the API has always given them) that no source already names.
 */
export function citedSources(record: { [field: string]: unknown }): Source[] {
  const own = Array.isArray(record.sources) ? (record.sources as Source[]) : [];
  const named = new Set(own.map((s) => s.url).filter(Boolean));
  const evidence = typeof record.evidence === 'string' ? record.evidence.split(/,\s*/).map((u) => u.trim()).filter(Boolean) : [];
  return [...own, ...evidence.filter((url) => !named.has(url)).map((url): Source => ({ kind: 'other', title: url, url }))];
}
