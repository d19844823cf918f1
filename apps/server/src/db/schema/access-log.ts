import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Reads of a private record, or of a record whose withheld testimony the reader was shown, by an account (decisions.md
 * §4): who, which record, when, from which session. Not the public audit chain; kept as long as it (never pruned).
 */
export const accessLog = pgTable(
  'access_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    userId: uuid('user_id').notNull(),
    sessionId: uuid('session_id'),
    recordId: uuid('record_id').notNull(),
    category: text('category').notNull(),
    /** `private` (a record the public cannot read) or `withheld` (a public record's withheld testimony shown). */
    kind: text('kind').notNull(),
  },
  (t) => [index('access_log_at_idx').on(t.at), index('access_log_user_idx').on(t.userId, t.at)],
);

export type AccessLogRow = typeof accessLog.$inferSelect;
