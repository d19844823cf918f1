import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Append-only log of every write. Each entry's hash covers the previous entry's hash and its own content, so
 * editing or deleting a row breaks the chain (GET /audit/verify).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    actorId: uuid('actor_id'),
    actorRole: text('actor_role'),
    action: text('action').notNull(),
    category: text('category'),
    recordId: uuid('record_id'),
    /** What else the entry is about (a user, a media file, a representative). */
    subject: text('subject'),
    changes: jsonb('changes').$type<Record<string, { before: unknown; after: unknown }>>().notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    index('audit_record_idx').on(t.recordId, t.seq),
    index('audit_actor_idx').on(t.actorId, t.seq),
  ],
);

export type AuditRow = typeof auditLog.$inferSelect;
