import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored lower-cased. */
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role').notNull().default('contributor'),
    active: boolean('active').notNull().default(false),
    /** Raised by a password reset or role change; tokens carrying an older version are refused. */
    tokenVersion: integer('token_version').notNull().default(0),
    /** Reviewing testimonies: null follows the role (admins and supers review), true granted, false withdrawn by a super. */
    reviewer: boolean('reviewer'),
    /** What the person gave at sign-up for the accounts queue (both optional). */
    organisation: text('organisation'),
    reason: text('reason'),
    /** The admin who invited the account (approved on activation), when it was invited. */
    invitedBy: uuid('invited_by'),
    /** When and by whom a pending account was approved or declined. */
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    decidedBy: uuid('decided_by'),
    /** The TOTP secret, sealed with the site's key (services/two-factor.ts); set at enrolment, in use once confirmed. */
    totpSecret: text('totp_secret'),
    totpConfirmedAt: timestamp('totp_confirmed_at', { withTimezone: true, mode: 'date' }),
    /** The last TOTP time step accepted: a code is never accepted twice, nor one older than it. */
    totpLastStep: integer('totp_last_step').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_idx').on(t.email), index('users_role_idx').on(t.role)],
);

/** Single-use tokens (activation, password reset), stored only as SHA-256 hashes. */
export const tokens = pgTable(
  'tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tokens_hash_idx').on(t.tokenHash), index('tokens_user_idx').on(t.userId, t.purpose)],
);

export type UserRow = typeof users.$inferSelect;
