import { pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';

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
