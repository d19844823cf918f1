import { z } from 'zod';

/**
 * Spreadsheet and form imports (docs/import.md): how a file's columns are read into a category's fields, and what the
 * check and the commit job answer. Shared so the import screen builds and reads exactly what the server takes.
 */

export const IMPORT_CALENDARS = ['gregorian', 'ethiopic'] as const;

/** A field read from a column (dates in the calendar named, else each value's own marks say), or set to one value. */
export const importFieldSourceSchema = z.union([
  z.object({ column: z.string().min(1).max(300), calendar: z.enum(IMPORT_CALENDARS).optional() }).strict(),
  z.object({ value: z.string().max(50_000) }).strict(),
]);
export type ImportFieldSource = z.infer<typeof importFieldSourceSchema>;

/** Field name -> where its value comes from. Fields left out are empty. */
export const importMappingSchema = z.record(z.string().max(100), importFieldSourceSchema);
export type ImportMapping = z.infer<typeof importMappingSchema>;

export const IMPORT_STATUSES = ['checked', 'queued', 'running', 'done', 'cancelled', 'failed', 'trashed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const importProblemSchema = z.object({ row: z.number().int(), field: z.string(), message: z.string() });
export const importDuplicateSchema = z.object({
  row: z.number().int(),
  /** Existing records (`_id`, `score`) or earlier rows of the same file (`row`). */
  matches: z.array(z.object({ _id: z.string().optional(), row: z.number().int().optional(), title: z.string().optional(), score: z.number().optional() })),
});

/** What the check answers (rows numbered as a spreadsheet numbers them: the header is row 1). */
export const importCheckSchema = z.object({
  id: z.string(),
  category: z.string(),
  rows: z.number().int(),
  valid: z.number().int(),
  /** Rows whose fingerprint a live record made by an earlier import already has: never written again. */
  alreadyImported: z.number().int(),
  /** The columns of the file, and the mapping used (the one sent, else the one matched from the headers). */
  columns: z.array(z.string()),
  mapping: importMappingSchema,
  /** The first 1,000 of each; all of them are paged by GET /imports/{id}/problems and in problems.csv. */
  errors: z.array(importProblemSchema),
  duplicates: z.array(importDuplicateSchema),
  errorCount: z.number().int(),
  duplicateCount: z.number().int(),
});
export type ImportCheck = z.infer<typeof importCheckSchema>;

export const importProgressSchema = z.object({
  id: z.string(),
  category: z.string(),
  fileName: z.string(),
  status: z.enum(IMPORT_STATUSES),
  rows: z.number().int(),
  valid: z.number().int(),
  done: z.number().int(),
  total: z.number().int(),
  created: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  alreadyImported: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
});
export type ImportProgress = z.infer<typeof importProgressSchema>;

export const IMPORT_DUPLICATE_CHOICES = ['skip', 'create', 'link'] as const;
export const importCommitSchema = z
  .object({
    /** What to do with the rows found to be likely duplicates; `link` ties the row to the best existing match. */
    duplicates: z.enum(IMPORT_DUPLICATE_CHOICES, { error: `Must be one of ${IMPORT_DUPLICATE_CHOICES.join(', ')}` }).default('skip'),
    /** Per row (spreadsheet number), overriding `duplicates`. */
    decisions: z.record(z.string().regex(/^\d+$/, { error: 'Rows are numbers' }), z.enum(IMPORT_DUPLICATE_CHOICES)).default({}),
  })
  .strict();
export type ImportCommit = z.infer<typeof importCommitSchema>;

export const importProblemRowSchema = z.object({
  row: z.number().int(),
  kind: z.enum(['error', 'duplicate']),
  field: z.string(),
  message: z.string(),
});

export const savedMappingSchema = z.object({ id: z.string(), category: z.string(), name: z.string(), mapping: importMappingSchema, createdAt: z.string() });
export const saveMappingBodySchema = z.object({
  category: z.string().max(40),
  name: z.string({ error: 'Give the mapping a name' }).trim().min(1, { error: 'Give the mapping a name' }).max(100, { error: 'Must be at most 100 characters' }),
  mapping: importMappingSchema,
});

/**
 * A header as compared: a KoboToolbox/ODK group path keeps its last part (`group_victim/name` -> `name`), then case,
 * spaces, `_`, `-`, `.` and `:` are dropped, so "Full name", "full_name" and "fullName" agree.
 */
export function headerKey(header: string): string {
  const last = header.replace(/^\uFEFF/, '').split('/').pop() ?? '';
  return last.normalize('NFC').toLowerCase().replace(/[\s_\-.:*()[\]]+/g, '');
}
