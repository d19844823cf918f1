import { integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** What a queued mail holds: the message as it will be sent (a reset link, a letter: read by no one but the sender). */
export interface QueuedMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
}

/**
 * Mails whose first try failed, waiting for a retry (a `mail.retry` job each). A row is deleted once its mail is sent
 * or given up, so the content of a mail stays no longer than it takes to deliver it.
 */
export const mailQueue = pgTable('mail_queue', {
  id: uuid('id').primaryKey().defaultRandom(),
  message: jsonb('message').$type<QueuedMessage>().notNull(),
  /** Tries so far, the first (failed) one included. */
  attempts: integer('attempts').notNull().default(1),
  /** The last refusal, without any address (mailErrorReason). */
  lastError: text('last_error'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
