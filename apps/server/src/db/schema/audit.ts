import { bigint, bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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

/**
 * Signed statements of the audit chain's head: "entry `seq` has hash `hash`", signed with the site's Ed25519 key
 * (public at /.well-known/audit-key), optionally with an RFC 3161 time-stamp token over the same statement. A chain
 * whose newest entries were removed, or rewritten with new hashes, no longer reaches the last checkpoint's head.
 */
export const auditCheckpoints = pgTable('audit_checkpoints', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  hash: text('hash').notNull(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  /** SHA-256 of the public key, hex: which key signed (a key may be replaced; old checkpoints keep theirs). */
  keyId: text('key_id').notNull(),
  publicKey: text('public_key').notNull(),
  /** Ed25519 signature (base64) of the checkpoint's statement (see services/audit-checkpoints.ts). */
  signature: text('signature').notNull(),
  /** DER time-stamp token (base64) from TSA_URL over the statement's SHA-256, when a TSA is configured. */
  timestampToken: text('timestamp_token'),
  timestampedAt: timestamp('timestamped_at', { withTimezone: true, mode: 'date' }),
  /** Why the last token the authority returned was refused (it did not verify on receipt); never kept as a token. */
  timestampFailure: text('timestamp_failure'),
  timestampFailedAt: timestamp('timestamp_failed_at', { withTimezone: true, mode: 'date' }),
});

export type AuditCheckpointRow = typeof auditCheckpoints.$inferSelect;
