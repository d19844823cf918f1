import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * Spreadsheet and form imports (modules/imports, docs/import.md): the uploaded file is kept in the data folder so the
 * commit job re-reads it as a stream; the row's counts are the job's progress.
 */
export const imports = pgTable(
  'imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id').notNull(),
    category: text('category').notNull(),
    /** The file as named by the uploader, and how it is read ('csv' or 'xlsx'). */
    fileName: text('file_name').notNull(),
    format: text('format').notNull(),
    /** Field name -> { column, calendar? } or { value }: how each field is read (imports/mapping.ts). */
    mapping: jsonb('mapping').$type<Record<string, unknown>>().notNull(),
    /** Row number -> 'skip' | 'create' | 'link' for the rows found to be likely duplicates. */
    decisions: jsonb('decisions').$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
    /** checked, queued, running, done, cancelled, failed, trashed */
    status: text('status').notNull().default('checked'),
    rows: integer('rows').notNull().default(0),
    valid: integer('valid').notNull().default(0),
    done: integer('done').notNull().default(0),
    created: integer('created').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    /** Rows already imported before (same fingerprint, record still live): never created twice. */
    alreadyImported: integer('already_imported').notNull().default(0),
    jobId: uuid('job_id'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('imports_owner_idx').on(t.ownerId, t.createdAt.desc())],
);

/**
 * One row per spreadsheet row written (or linked to an existing record): the link of a record to its import, the
 * row's fingerprint (a re-import of the same row creates nothing) and the key the file gave it (an exported
 * `event_id`, so people linked to it in another file find the record made from it).
 */
export const importRows = pgTable(
  'import_rows',
  {
    importId: uuid('import_id').notNull(),
    row: integer('row').notNull(),
    category: text('category').notNull(),
    fingerprint: text('fingerprint').notNull(),
    recordId: uuid('record_id').notNull(),
    /** 'created' or 'linked' (a duplicate the person chose to link to the existing record). */
    outcome: text('outcome').notNull(),
    sourceKey: text('source_key'),
  },
  (t) => [
    uniqueIndex('import_rows_pk').on(t.importId, t.row),
    index('import_rows_fingerprint_idx').on(t.category, t.fingerprint),
    index('import_rows_source_key_idx').on(t.sourceKey).where(sql`${t.sourceKey} is not null`),
    index('import_rows_record_idx').on(t.recordId),
  ],
);

/** The problems the check found, paged on the screen and downloaded as CSV. */
export const importProblems = pgTable(
  'import_problems',
  {
    importId: uuid('import_id').notNull(),
    seq: integer('seq').notNull(),
    row: integer('row').notNull(),
    /** 'error' or 'duplicate' */
    kind: text('kind').notNull(),
    field: text('field').notNull(),
    message: text('message').notNull(),
    matches: jsonb('matches').$type<unknown[]>(),
  },
  (t) => [uniqueIndex('import_problems_pk').on(t.importId, t.seq), index('import_problems_row_idx').on(t.importId, t.kind, t.row)],
);

/** Mappings saved by their owner under a name, for the next file of the same shape. */
export const importMappings = pgTable(
  'import_mappings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id').notNull(),
    category: text('category').notNull(),
    name: text('name').notNull(),
    mapping: jsonb('mapping').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('import_mappings_name_idx').on(t.ownerId, t.category, t.name)],
);
