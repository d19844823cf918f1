import { z } from 'zod';
import type { CategorySlug } from './categories/types';

/**
 * GET /incidents/suggest: the massacres and events a partly typed text names, for the incident picker of the person
 * forms. Unlike GET /search (whole words), every typed word matches the start of a word of the title, case number or
 * place; a typed date (YYYY, YYYY-MM, YYYY-MM-DD) matches the incident date in that period.
 */

export const INCIDENT_SUGGEST_LIMIT_MAX = 10;
export const INCIDENT_SUGGEST_LIMIT_DEFAULT = 8;
export const INCIDENT_SUGGEST_Q_MAX = 200;

export const incidentSuggestQuerySchema = z.object({
  q: z
    .string({ error: 'Must be text' })
    .trim()
    .min(1, { error: 'Must not be empty' })
    .max(INCIDENT_SUGGEST_Q_MAX, { error: `Must be at most ${INCIDENT_SUGGEST_Q_MAX} characters` })
    .describe('What was typed: starts of words of the title, case number or place, or a date (YYYY, YYYY-MM, YYYY-MM-DD)'),
  limit: z.coerce
    .number({ error: 'Must be a whole number' })
    .int({ error: 'Must be a whole number' })
    .min(1, { error: 'Must be at least 1' })
    .max(INCIDENT_SUGGEST_LIMIT_MAX, { error: `Must be at most ${INCIDENT_SUGGEST_LIMIT_MAX}` })
    .optional()
    .describe(`How many incidents at most (default ${INCIDENT_SUGGEST_LIMIT_DEFAULT})`),
});
export type IncidentSuggestQuery = z.infer<typeof incidentSuggestQuerySchema>;

/** One suggested incident: what the picker shows to tell two incidents apart. */
export interface IncidentSuggestion {
  id: string;
  category: CategorySlug;
  title: string;
  /** The incident date (a massacre's day, an event's start), YYYY-MM-DD, or null when not recorded. */
  date: string | null;
  caseNum: string | null;
  /** Location, city, woreda and zone as recorded, joined by commas; null when none is. */
  place: string | null;
  /** The region code, or null. */
  region: string | null;
}

export interface IncidentSuggestResponse {
  incidents: IncidentSuggestion[];
}

const YEAR = /^(\d{4})$/;
const MONTH = /^(\d{4})-(\d{2})$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const pad = (n: number) => String(n).padStart(2, '0');

/** The days a typed year, month or day covers (first and last, inclusive), or null when the text is not a date. */
export function typedPeriod(text: string): { from: string; to: string } | null {
  if (YEAR.test(text)) return { from: `${text}-01-01`, to: `${text}-12-31` };
  const month = MONTH.exec(text);
  if (month) {
    const [year, m] = [Number(month[1]), Number(month[2])];
    if (m < 1 || m > 12) return null;
    // Day 0 of the next month: the last day of this one.
    return { from: `${text}-01`, to: `${text}-${pad(new Date(Date.UTC(year, m, 0)).getUTCDate())}` };
  }
  const day = DAY.exec(text);
  if (day && !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text)) return { from: text, to: text };
  return null;
}

/** The words of a typed text as the index splits them: runs of letters, marks and digits, lower-cased. */
export function typedWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? []).slice(0, 20);
}
