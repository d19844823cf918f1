import { z } from 'zod';
import { CATEGORY_SLUGS } from './categories/types';
import { UUID_PATTERN } from './ids';

/**
 * Duplicate people (docs/duplicates.md): the check the add and edit forms of a person category run before saving
 * (GET /{category}/duplicates), and the admins' "Possible duplicates" screen, where a pair is merged or marked as two
 * different people.
 */

/** Why a candidate may be the same person: a similar name, and what else it shares with the record being written. */
export const DUPLICATE_REASONS = ['name', 'incident', 'date', 'woreda'] as const;
export type DuplicateReason = (typeof DUPLICATE_REASONS)[number];

/** Days apart that two dates may be and still count as the same date (reports of one killing disagree by a day or two). */
export const DUPLICATE_DATE_DAYS = 3;

const uuid = (what: string) => z.string({ error: `Must be ${what} (uuid)` }).regex(UUID_PATTERN, { error: `Must be ${what} (uuid)` });

const instant = z
  .string({ error: 'Must be a date (YYYY-MM-DD)' })
  .max(40, { error: 'Must be a date (YYYY-MM-DD)' })
  .refine((v) => /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v)), { error: 'Must be a date (YYYY-MM-DD)' });

const blankAsMissing = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

export const duplicateQuerySchema = z.object({
  name: z
    .string({ error: 'Give the name to check' })
    .trim()
    .min(2, { error: 'Give at least two letters of the name' })
    .max(300, { error: 'Must be at most 300 characters' })
    .describe("The person's name, in Ge'ez or Latin letters"),
  happenedOn: z.preprocess(blankAsMissing, instant.optional()).describe('When it happened (YYYY-MM-DD)'),
  incidentId: z.preprocess(blankAsMissing, uuid('a record id').optional()).describe('The massacre or event the person belongs to'),
  woreda: z.preprocess(blankAsMissing, z.string().trim().max(100, { error: 'Must be at most 100 characters' }).optional()).describe('Woreda, as written'),
  id: z.preprocess(blankAsMissing, uuid('a record id').optional()).describe('The record being edited (left out of the answer)'),
});
export type DuplicateQuery = z.infer<typeof duplicateQuerySchema>;

/** A person record as a duplicate check or pair shows it: enough to tell whether it is the same person. */
export const duplicatePersonSchema = z.object({
  _id: z.string(),
  category: z.enum(CATEGORY_SLUGS),
  title: z.string(),
  fullName: z.string().nullable(),
  happenedOn: z.string().nullable(),
  region: z.string().nullable(),
  woreda: z.string().nullable(),
  incidentId: z.string().nullable(),
  createdAt: z.string(),
});
export type DuplicatePerson = z.infer<typeof duplicatePersonSchema>;

export const duplicateCandidateSchema = duplicatePersonSchema.extend({
  /** 0 to 1: how likely the same person (the name's similarity, raised by each other reason). */
  score: z.number(),
  /** pg_trgm similarity of the two names in Latin letters, 0 to 1. */
  nameSimilarity: z.number(),
  reasons: z.array(z.enum(DUPLICATE_REASONS)),
});
export type DuplicateCandidate = z.infer<typeof duplicateCandidateSchema>;

/** What a record of a pair holds, i.e. what moves to the other when it is merged into it (the screen says so). */
export const duplicateHoldingsSchema = z.object({
  files: z.number(),
  sources: z.number(),
  /** Withheld witness testimonies among the sources: they move, readable by their author and staff only. */
  withheldSources: z.number(),
  /** Confirmed: merged into a record not confirmed, it confirms that record. */
  confirmed: z.boolean(),
});
export type DuplicateHoldings = z.infer<typeof duplicateHoldingsSchema>;

const pairPersonSchema = duplicatePersonSchema.extend({ holds: duplicateHoldingsSchema });
export type DuplicatePairPerson = z.infer<typeof pairPersonSchema>;

export const duplicatePairSchema = z.object({
  first: pairPersonSchema,
  second: pairPersonSchema,
  score: z.number(),
  nameSimilarity: z.number(),
  reasons: z.array(z.enum(DUPLICATE_REASONS)),
});
export type DuplicatePair = z.infer<typeof duplicatePairSchema>;

export const mergeBodySchema = z
  .object({ keep: uuid('the id of the record kept'), merge: uuid('the id of the record merged into it') })
  .refine((b) => b.keep.toLowerCase() !== b.merge.toLowerCase(), { error: 'Must be another record than the one kept', path: ['merge'] });
export type MergeBody = z.infer<typeof mergeBodySchema>;

export const dismissBodySchema = z
  .object({ first: uuid('a record id'), second: uuid('a record id') })
  .refine((b) => b.first.toLowerCase() !== b.second.toLowerCase(), { error: 'Must be another record than the first', path: ['second'] });
export type DismissBody = z.infer<typeof dismissBodySchema>;
