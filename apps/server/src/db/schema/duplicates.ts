import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Pairs of person records an admin said are not the same person: the duplicate check and the "Possible duplicates"
 * screen never show them together again. Each pair once, its smaller id first.
 */
export const duplicateDismissals = pgTable(
  'duplicate_dismissals',
  {
    first: uuid('first').notNull(),
    second: uuid('second').notNull(),
    dismissedBy: uuid('dismissed_by'),
    dismissedAt: timestamp('dismissed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.first, t.second] })],
);

/**
 * The possible duplicates of the whole table, found ahead of time (modules/duplicates/scan.ts): each person record is
 * checked once when it is written, as the form's check would check it, so the admins' screen reads pairs best first
 * through an index instead of comparing a million records while they wait. Each pair once, its smaller id first;
 * scores in thousandths (the API's score times 1000), so a page's cursor compares exactly.
 */
export const duplicatePairs = pgTable(
  'duplicate_pairs',
  {
    first: uuid('first').notNull(),
    second: uuid('second').notNull(),
    score: integer('score').notNull(),
    nameSimilarity: integer('name_similarity').notNull(),
    reasons: text('reasons').array().notNull(),
    foundAt: timestamp('found_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.first, t.second] }),
    // The screen's order (best first), read backwards page by page.
    index('duplicate_pairs_best_idx').on(t.score, t.first, t.second),
    // A record checked again drops its old pairs, on either side.
    index('duplicate_pairs_second_idx').on(t.second),
  ],
);

/**
 * Person records still to be checked for duplicates: filled by triggers on records (migration 0019), whatever wrote
 * the row, and emptied by the scan.
 */
export const duplicateScanQueue = pgTable('duplicate_scan_queue', {
  recordId: uuid('record_id').primaryKey(),
  queuedAt: timestamp('queued_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`now()`),
});
