import { z } from 'zod';
import type { RecordDto } from './contract';
import { CATEGORY_SLUGS } from './categories/types';
import { REGION_CODES, UNKNOWN_REGION } from './places/regions';
import { UUID_PATTERN } from './ids';

/**
 * The filters of the collection, declared once: search (GET /search), statistics, the map and the open-data export
 * take the same query string, so a link from a chart bar or a map region to the search, or from the search to its
 * download, keeps every filter.
 */

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A repeatable query parameter (`?region=amhara&region=afar`): one value or several, given as an array whatever was
 * sent, without repeats and sorted, so that two spellings of one filter are one cache entry.
 */
function many<T extends z.ZodType<string>>(item: T, max = 20) {
  return z
    .preprocess((v) => (v === undefined || v === '' ? undefined : Array.isArray(v) ? v : [v]), z.array(item).max(max, { error: `At most ${max} values` }).optional())
    .transform((values) => (values?.length ? [...new Set(values)].sort() : undefined));
}

const day = z
  .string({ error: 'Must be a date (YYYY-MM-DD)' })
  .regex(DAY_RE, { error: 'Must be a date (YYYY-MM-DD)' })
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), {
    error: 'Must be a real calendar date',
  });

/** A free-text facet value (victimizer, killing type): matched exactly as stored. */
const facetText = z.string({ error: 'Must be text' }).trim().min(1, { error: 'Must not be empty' }).max(300, { error: 'Must be at most 300 characters' });

export const searchFiltersSchema = z
  .object({
    q: z
      .string({ error: 'Must be text' })
      .trim()
      .max(200, { error: 'Must be at most 200 characters' })
      .optional()
      .transform((v) => (v ? v : undefined))
      .describe('Words to find in titles, names, places, descriptions and remarks; "quoted phrase", -excluded, or'),
    category: many(z.enum(CATEGORY_SLUGS, { error: 'Not a category' })).describe('Categories (repeatable)'),
    region: many(z.enum([UNKNOWN_REGION, ...REGION_CODES], { error: 'Not a region' })).describe(
      `Region codes (repeatable); "${UNKNOWN_REGION}" for records whose region was not recorded`,
    ),
    victimizer: many(facetText).describe('Perpetrators, as recorded (repeatable)'),
    killingType: many(facetText).describe('Killing types, as recorded (repeatable)'),
    from: day.optional().describe('Happened on or after this day (incident date, or an event start)'),
    to: day.optional().describe('Happened on or before this day'),
    confirmed: z.enum(['true', 'false'], { error: 'Must be true or false' }).optional().describe('Approved (true) or not yet (false)'),
    incident: z
      .string({ error: 'Must be the id of a massacre or event' })
      .regex(UUID_PATTERN, { error: 'Must be the id of a massacre or event' })
      .transform((v) => v.toLowerCase())
      .optional()
      .describe('The people linked to this massacre or event (its id); none when the reader may not read it'),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { error: 'Must be on or after "from"', path: ['to'] });

export type SearchFilters = z.infer<typeof searchFiltersSchema>;

/** Most results on one search page. */
export const SEARCH_LIMIT_MAX = 50;
export const SEARCH_LIMIT_DEFAULT = 20;

export const searchQuerySchema = z.intersection(
  searchFiltersSchema,
  z.object({
    cursor: z.string().max(300, { error: 'This cursor is not valid' }).optional().describe('Keyset position: nextCursor of the previous page'),
    limit: z.coerce
      .number({ error: 'Must be a whole number' })
      .int({ error: 'Must be a whole number' })
      .min(1, { error: 'Must be at least 1' })
      .max(SEARCH_LIMIT_MAX, { error: `Must be at most ${SEARCH_LIMIT_MAX}` })
      .optional(),
  }),
);
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** Facets counted with every search: how many matching records have each value. */
export const SEARCH_FACETS = ['category', 'region', 'victimizer', 'killingType', 'year', 'confirmed'] as const;
export type SearchFacet = (typeof SEARCH_FACETS)[number];

export interface FacetCount {
  value: string;
  count: number;
}

/** A piece of a result's snippet; `match` pieces are the words the query found (shown highlighted). */
export interface SnippetPart {
  text: string;
  match: boolean;
}

export interface SearchHit {
  record: RecordDto;
  /** Where the words were found, as plain text pieces (never HTML). Empty without `q`. */
  snippet: SnippetPart[];
}

/**
 * The order of the hits: best match first, or newest first (searches without words, and searches with more matches than
 * are ranked: see `estimated`).
 */
export type SearchOrder = 'relevance' | 'newest';

export interface SearchResponse {
  /** How many records match: exact, or when `estimated`, estimated from a sample (two significant digits). */
  total: number;
  /** More records match than are counted one by one: the total and facet counts are estimates. */
  estimated: boolean;
  order: SearchOrder;
  hits: SearchHit[];
  facets: Record<SearchFacet, FacetCount[]>;
  /** The cursor of the next page, or null on the last. */
  nextCursor: string | null;
}
