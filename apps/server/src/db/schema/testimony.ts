import { bigint, boolean, customType, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** Raw bytes: sealed keys and ciphertexts are stored as they are, never as text a log or a dump would show decoded. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * The site's intake key (X25519). Only its public half is stored in the clear; the private half exists only wrapped,
 * once per reviewer (under a key derived from their passphrase) and once under the recovery key.
 */
export const intakeKeys = pgTable('intake_keys', {
  id: uuid('id').primaryKey().defaultRandom(),
  publicKey: bytea('public_key').notNull(),
  /** The key testimonies are sealed to; older ones are kept so earlier testimonies can still be opened. */
  current: boolean('current').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** One wrap of an intake private key: a reviewer's (user_id set) or the recovery key's (user_id null). */
export const intakeKeyWraps = pgTable(
  'intake_key_wraps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    keyId: uuid('key_id')
      .notNull()
      .references(() => intakeKeys.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** Argon2id salt, cost figures and the secretbox nonce+ciphertext of the private key. */
    salt: bytea('salt').notNull(),
    opsLimit: integer('ops_limit').notNull(),
    memLimit: integer('mem_limit').notNull(),
    wrapped: bytea('wrapped').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('intake_key_wraps_user_idx').on(t.userId)],
);

/**
 * A testimony. Nothing here is readable without the intake private key or the witness's receipt: the statement and
 * its fields are one sealed envelope; the files are sealed objects in the storage. What is in the clear is what a
 * seized server is allowed to reveal (docs/testimony.md): that it exists, its size, when it came, its state.
 */
export const testimonies = pgTable(
  'testimonies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    keyId: uuid('key_id')
      .notNull()
      .references(() => intakeKeys.id),
    /** new, in-review, used, declined */
    status: text('status').notNull().default('new'),
    /** Sent without the proof of work (the no-JavaScript form). */
    unverified: boolean('unverified').notNull().default(false),
    /** The per-testimony content key, sealed to the intake public key (crypto_box_seal). */
    sealedKey: bytea('sealed_key').notNull(),
    /** The envelope (statement, date, place, people, contact, consent), secretstream-encrypted with the content key. */
    envelope: bytea('envelope').notNull(),
    /** A few bits of a keyed HMAC of the receipt: narrows the rows to try, identifies nobody (docs/testimony.md). */
    receiptBucket: integer('receipt_bucket').notNull(),
    /** scrypt salt of the receipt; the receipt's scrypt output opens `witnessSecret`. */
    receiptSalt: bytea('receipt_salt').notNull(),
    /** The witness's X25519 private key under the receipt-derived key (secretbox): reviewers' messages are sealed to it. */
    witnessSecret: bytea('witness_secret').notNull(),
    witnessPublicKey: bytea('witness_public_key').notNull(),
    /** Bytes of ciphertext (envelope and files): revealed by the storage anyway. */
    sealedBytes: bigint('sealed_bytes', { mode: 'number' }).notNull().default(0),
    recordId: uuid('record_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('testimonies_bucket_idx').on(t.receiptBucket), index('testimonies_status_idx').on(t.status, t.createdAt)],
);

/** A file of a testimony: sealed in the storage under `testimony/<testimony>/<id>`; its name and type are sealed too. */
export const testimonyFiles = pgTable(
  'testimony_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    testimonyId: uuid('testimony_id')
      .notNull()
      .references(() => testimonies.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull(),
    /** The file's own content key, sealed to the intake key; its name, type and SHA-256 are in `meta`. */
    sealedKey: bytea('sealed_key').notNull(),
    meta: bytea('meta').notNull(),
    sealedBytes: bigint('sealed_bytes', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('testimony_files_testimony_idx').on(t.testimonyId)],
);

/**
 * Messages between reviewers and the witness. A reviewer's is sealed to the witness key (the witness reads it with the
 * receipt) and to the intake key (other reviewers read it); a witness's reply to the intake key only.
 */
export const testimonyMessages = pgTable(
  'testimony_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    testimonyId: uuid('testimony_id')
      .notNull()
      .references(() => testimonies.id, { onDelete: 'cascade' }),
    /** reviewer or witness */
    author: text('author').notNull(),
    forWitness: bytea('for_witness'),
    forReviewers: bytea('for_reviewers').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('testimony_messages_testimony_idx').on(t.testimonyId, t.createdAt)],
);

export type TestimonyRow = typeof testimonies.$inferSelect;
