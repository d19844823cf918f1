import { eq, sql } from 'drizzle-orm';
import { ZodError } from 'zod';
import { fieldErrors, getCategory, type Actor, type ImportMapping, type Role } from '@app/shared';
import type { Db, Tx } from '../../db';
import { importProblems, importRows, imports, users } from '../../db/schema';
import type { RecordWrites } from '../records/writes';
import { alreadyImported, dataRows } from './check';
import { IncidentResolver, RowReader, type PreparedRow } from './rows';

/**
 * The commit job: the file read again, row by row, each valid row created through the records' create service (the
 * create route's validation, link checks, captures and audit entry) with its import row in the same transaction. A
 * row is written with its import row or not at all, so a job that stops (a restart, a crash, a cancel) runs again
 * from the start and passes over the rows already written.
 */

export const IMPORT_JOB = 'import-commit';
export const IMPORT_JOB_ATTEMPTS = 5;
/** Rows between two saves of the progress (and checks of a cancel). */
const PROGRESS_EVERY = 100;

export interface ImportJobContext {
  db: Db;
  writes: RecordWrites;
  /** The media service's transaction (files stored in it are removed if it does not commit), one per batch of rows. */
  transaction: <T>(work: (tx: Tx) => Promise<T>) => Promise<T>;
  file: (importId: string) => string;
  /** Told after each saved progress: the caches learn that records changed. */
  changed: (category: string) => void;
  /** Tests stop the job here, as a crash would. */
  afterProgress?: (done: number) => Promise<void> | void;
}

type Counts = { done: number; created: number; skipped: number; failed: number };

export async function runImport(context: ImportJobContext, importId: string): Promise<void> {
  const { db } = context;
  const [job] = await db.select().from(imports).where(eq(imports.id, importId));
  if (!job || !['queued', 'running'].includes(job.status)) return;
  const category = getCategory(job.category)!;
  const [owner] = await db.select({ id: users.id, role: users.role, active: users.active }).from(users).where(eq(users.id, job.ownerId));
  if (!owner?.active) throw new Error('The account that started the import can no longer write records');
  const actor: Actor = { id: owner.id, role: owner.role as Role };
  await db.update(imports).set({ status: 'running', updatedAt: new Date() }).where(eq(imports.id, importId));
  const written = new Map((await db.select({ row: importRows.row, outcome: importRows.outcome }).from(importRows).where(eq(importRows.importId, importId))).map((r) => [r.row, r.outcome]));
  const duplicates = new Map<number, string | null>();
  for (const p of await db.select({ row: importProblems.row, matches: importProblems.matches }).from(importProblems).where(sql`${importProblems.importId} = ${importId} and ${importProblems.kind} = 'duplicate'`)) {
    const best = (p.matches as { _id?: string }[] | null)?.find((m) => m._id);
    duplicates.set(p.row, best?._id ?? null);
  }
  const counts: Counts = { done: 0, created: 0, skipped: 0, failed: 0 };
  let reader: RowReader | null = null;
  let batch: PreparedRow[] = [];
  const flush = async () => {
    const before = await alreadyImported(db, category.slug, batch.filter((p) => p.input && !written.has(p.row)).map((p) => p.fingerprint));
    // One transaction per batch: a commit per row cost more than the row (its WAL flush); each row has a savepoint.
    await context.transaction(async (tx) => {
      for (const prepared of batch) await writeRow(context, tx, { importId, category: category.slug, actor, decisions: job.decisions, duplicates, written, before }, prepared, counts);
    });
    batch = [];
    const [now] = await db.update(imports).set({ ...counts, updatedAt: new Date() }).where(eq(imports.id, importId)).returning({ status: imports.status });
    context.changed(category.slug);
    await context.afterProgress?.(counts.done);
    return now?.status === 'running';
  };
  for await (const item of dataRows(context.file(importId), category)) {
    if ('header' in item) {
      reader = new RowReader(category, job.mapping as ImportMapping, item.header, new IncidentResolver(db));
      continue;
    }
    const prepared = await reader!.prepare(item.cells, item.row);
    if (!prepared) continue;
    batch.push(prepared);
    if (batch.length >= PROGRESS_EVERY && !(await flush())) return;
  }
  if (!(await flush())) return;
  await db.update(imports).set({ status: 'done', updatedAt: new Date() }).where(eq(imports.id, importId));
}

interface RowContext {
  importId: string;
  category: string;
  actor: Actor;
  decisions: Record<string, string>;
  duplicates: Map<number, string | null>;
  written: Map<number, string>;
  before: Set<string>;
}

async function writeRow(context: ImportJobContext, tx: Tx, row: RowContext, prepared: PreparedRow, counts: Counts): Promise<void> {
  counts.done++;
  const already = row.written.get(prepared.row);
  if (already) {
    if (already === 'created') counts.created++;
    else counts.skipped++;
    return;
  }
  if (!prepared.input) return void counts.failed++;
  if (row.before.has(prepared.fingerprint)) return void counts.skipped++;
  const link = { importId: row.importId, row: prepared.row, category: row.category, fingerprint: prepared.fingerprint, sourceKey: prepared.sourceKey };
  if (row.duplicates.has(prepared.row)) {
    const choice = row.decisions[String(prepared.row)] ?? row.decisions['*'] ?? 'skip';
    const match = row.duplicates.get(prepared.row);
    if (choice === 'skip' || (choice === 'link' && !match)) return void counts.skipped++;
    if (choice === 'link') {
      await tx.insert(importRows).values({ ...link, recordId: match!, outcome: 'linked' });
      row.written.set(prepared.row, 'linked');
      return void counts.skipped++;
    }
  }
  const category = getCategory(row.category)!;
  try {
    await tx.transaction((savepoint) =>
      context.writes.createIn(savepoint, { fields: { ...prepared.fields }, nextFile: async () => null }, category, row.actor, async (inner, recordId) => {
        await inner.insert(importRows).values({ ...link, recordId, outcome: 'created' });
      }),
    );
    row.written.set(prepared.row, 'created');
    counts.created++;
  } catch (err) {
    counts.failed++;
    // Only the row's own refusal (a 400's fields) is the row's problem; anything else stops the job, to be tried again.
    const body = err instanceof ZodError ? fieldErrors(err) : (err as { statusCode?: number; body?: Record<string, string> }).statusCode === 400 ? (err as { body: Record<string, string> }).body : null;
    if (!body) throw err;
    const problems = Object.entries(body);
    const [{ next } = { next: 0 }] = await tx.select({ next: sql<number>`coalesce(max(${importProblems.seq}), -1) + 1` }).from(importProblems).where(eq(importProblems.importId, row.importId));
    await tx.insert(importProblems).values(problems.map(([field, message], i) => ({ importId: row.importId, seq: Number(next) + i, row: prepared.row, kind: 'error', field: String(field), message: String(message).slice(0, 1000), matches: null })));
  }
}
