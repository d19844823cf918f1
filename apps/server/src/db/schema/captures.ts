import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { records } from './records';

/**
 * One row per capture of a cited link (a links record's linkURL, a massacre's evidence): every capture is kept, so
 * a URL's rows are its history. Its three files are stored like upload originals, never changed, with their SHA-256.
 */
export const linkCaptures = pgTable(
  'link_captures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null once the record is purged; the capture stays as evidence. */
    recordId: uuid('record_id').references(() => records.id, { onDelete: 'set null' }),
    /** The record field that cites the URL: linkURL or evidence. */
    field: text('field').notNull(),
    url: text('url').notNull(),
    /** queued, processing, done, failed */
    status: text('status').notNull().default('queued'),
    /** Why the capture failed (or why the last attempt did, while it is queued again). */
    reason: text('reason'),
    attempts: integer('attempts').notNull().default(0),
    requestedBy: uuid('requested_by'),
    requestedAt: timestamp('requested_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    capturedAt: timestamp('captured_at', { withTimezone: true, mode: 'date' }),
    finalUrl: text('final_url'),
    httpStatus: integer('http_status'),
    /**
     * The document the page first loaded, when it replaced that by another (a script's `location.replace`, a meta
     * refresh) before the capture: finalUrl and httpStatus are those of the document captured. Null otherwise.
     */
    firstLoad: jsonb('first_load').$type<{ url: string; status: number }>(),
    pageTitle: text('page_title'),
    snapshotKey: text('snapshot_key'),
    snapshotSha256: text('snapshot_sha256'),
    snapshotSize: bigint('snapshot_size', { mode: 'number' }),
    screenshotKey: text('screenshot_key'),
    screenshotSha256: text('screenshot_sha256'),
    screenshotSize: bigint('screenshot_size', { mode: 'number' }),
    headersKey: text('headers_key'),
    headersSha256: text('headers_sha256'),
    headersSize: bigint('headers_size', { mode: 'number' }),
    /** The web archive of the capture: its HTTP exchanges as WARC records, packaged as a signed WACZ. */
    waczKey: text('wacz_key'),
    waczSha256: text('wacz_sha256'),
    waczSize: bigint('wacz_size', { mode: 'number' }),
    /** The TLS certificate chains the capture's https connections were shown, PEM. */
    certificatesKey: text('certificates_key'),
    certificatesSha256: text('certificates_sha256'),
    certificatesSize: bigint('certificates_size', { mode: 'number' }),
    /** The time the WACZ's RFC 3161 time-stamp states (TSA_URL), once its token verified. */
    timestampedAt: timestamp('timestamped_at', { withTimezone: true, mode: 'date' }),
    /** Why the WACZ has no time-stamp although TSA_URL is set: the authority failed, or its token did not verify. */
    timestampFailure: text('timestamp_failure'),
  },
  (t) => [index('link_captures_record_idx').on(t.recordId, t.requestedAt.desc())],
);

/** Per-record choices about its captures, set by admins. No row: the defaults. */
export const recordCaptureSettings = pgTable('record_capture_settings', {
  recordId: uuid('record_id')
    .primaryKey()
    .references(() => records.id, { onDelete: 'cascade' }),
  /** Anyone who may read the record may download its snapshots and headers (default: signed-in editors only). */
  publicDownload: boolean('public_download').notNull().default(false),
  updatedBy: uuid('updated_by'),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export type LinkCaptureRow = typeof linkCaptures.$inferSelect;
