import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { countsTable, records } from './records';

/** One row per stored original: its hash and type, and the public copies derived from it. */
export const media = pgTable(
  'media',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    recordId: uuid('record_id').references(() => records.id, { onDelete: 'set null' }),
    /** image, video, poster */
    kind: text('kind').notNull(),
    /** cover (the record's single image), gallery (one of several), video */
    role: text('role').notNull(),
    position: integer('position').notNull().default(0),
    /** Key of the unchanged original (never served publicly). */
    storageKey: text('storage_key').notNull(),
    sha256: text('sha256').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    mime: text('mime').notNull(),
    originalName: text('original_name'),
    width: integer('width'),
    height: integer('height'),
    /** Public copies: [{width, format, key}] */
    variants: jsonb('variants').$type<{ width: number; format: string; key: string }[]>().notNull().default([]),
    /** Key of the main public copy (the one `imageUrl` points to). */
    publicKey: text('public_key'),
    /** Capture time, GPS and device of the original: editors only. */
    restricted: jsonb('restricted').$type<Record<string, unknown>>(),
    caption: text('caption'),
    graphic: boolean('graphic').notNull().default(false),
    /** ready, or for videos: queued, processing, ready, failed */
    status: text('status').notNull().default('ready'),
    statusReason: text('status_reason'),
    uploadedBy: uuid('uploaded_by'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Set when the file is taken off its record; the original stays in storage as evidence. */
    removedAt: timestamp('removed_at', { withTimezone: true, mode: 'date' }),
    // Copies of the owning record's columns, kept by triggers (drizzle/0002_gallery.sql), so the /images gallery is
    // read from one index in its own order and counted from gallery_counts, at any number of records.
    recordCategory: text('record_category'),
    recordCreatedAt: timestamp('record_created_at', { withTimezone: true, mode: 'date' }),
    /** The record exists and is not in the trash. */
    recordLive: boolean('record_live').notNull().default(false),
    recordPublic: boolean('record_public').notNull().default(false),
  },
  (t) => [
    index('media_record_idx').on(t.recordId, t.position).where(sql`${t.removedAt} is null`),
    index('media_sha256_idx').on(t.sha256),
    index('media_gallery_idx')
      .on(t.recordCreatedAt.desc(), t.recordId.desc(), t.position, t.createdAt, t.id)
      .where(sql`${t.kind} = 'image' and ${t.removedAt} is null and ${t.recordLive}`),
  ],
);

/**
 * Live images of live records per record category and visibility ('all', 'public'), kept exact by a trigger on media
 * (drizzle/0002_gallery.sql): the gallery's total is a sum of a few rows.
 */
export const galleryCounts = countsTable('gallery_counts');

/**
 * Which file each public copy belongs to, kept by a trigger on media from its variants and public key
 * (drizzle/0003_media_public_files.sql): serving a copy asks whether any of its files is on a live, public record.
 * Copies made before names were random may belong to several files with the same bytes.
 */
export const mediaPublicFiles = pgTable(
  'media_public_files',
  {
    key: text('key').notNull(),
    mediaId: uuid('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.key, t.mediaId] }), index('media_public_files_media_idx').on(t.mediaId)],
);

export type MediaRow = typeof media.$inferSelect;
