import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/** The representatives' directory (shipped data, loaded at first start; admins may correct e-mails). */
export const representatives = pgTable(
  'representatives',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    country: text('country').notNull(),
    province: text('province').notNull(),
    district: text('district').notNull(),
    name: text('name').notNull(),
    party: text('party'),
    email: text('email'),
    unreachable: boolean('unreachable').notNull().default(false),
    /** Shown next to the representative in the form (e.g. why they cannot be written to). */
    note: text('note'),
    /** Set when an admin corrects the row; the import keeps corrected rows unless forced. */
    correctedAt: timestamp('corrected_at', { withTimezone: true, mode: 'date' }),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('representatives_district_idx').on(t.country, t.province, t.district)],
);

/** Each country's default letter, editable by admins. */
export const campaignDefaults = pgTable('campaign_defaults', {
  country: text('country').primaryKey(),
  message: text('message').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * A letter to a representative: awaiting_confirmation -> confirmed -> sent, or expired / failed.
 * Sender details are scrubbed (set to null) some days after sending.
 */
export const campaignMessages = pgTable(
  'campaign_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    state: text('state').notNull(),
    representativeId: uuid('representative_id').references(() => representatives.id),
    /** The representative's name when the letter was written (a later import may replace the member). */
    representativeName: text('representative_name').notNull().default(''),
    country: text('country').notNull(),
    province: text('province').notNull(),
    district: text('district').notNull(),
    authorityEmail: text('authority_email').notNull(),
    /** The letter body only; the sender's signature block is built from the sender fields when sending. */
    message: text('message').notNull(),
    messageHash: text('message_hash').notNull(),
    email: text('email'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    city: text('city'),
    streetName: text('street_name'),
    zipcode: text('zipcode'),
    ipHash: text('ip_hash'),
    confirmTokenHash: text('confirm_token_hash'),
    failedReason: text('failed_reason'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    scrubbedAt: timestamp('scrubbed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('campaign_state_idx').on(t.state, t.createdAt),
    index('campaign_sent_idx').on(t.sentAt),
    uniqueIndex('campaign_token_idx').on(t.confirmTokenHash),
  ],
);
