import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Static copies of the public site that others keep (docs/mirror.md), listed by admins with their keys' fingerprints. */
export const knownMirrors = pgTable('known_mirrors', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  url: text('url').notNull(),
  /** SHA-256 (hex) of the mirror key's public half the keeper verified the copy with. */
  fingerprint: text('fingerprint').notNull(),
  note: text('note').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
