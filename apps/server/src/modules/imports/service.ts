import { createWriteStream } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { can, type Actor, type CategoryDef, type ImportCheck, type ImportCommit, type ImportMapping, type ImportProgress } from '@app/shared';
import type { Db } from '../../db';
import { importMappings, importProblems, importRows, imports, records } from '../../db/schema';
import { AppError, httpError } from '../../errors';
import type { AuditService } from '../../services/audit';
import type { JobQueue } from '../../services/jobs';
import { checkFile } from './check';
import { IMPORT_JOB, IMPORT_JOB_ATTEMPTS } from './job';
import { formatOf } from './read-file';

/** The largest file an import takes. */
export const IMPORT_MAX_MB = 200;

/** Imports kept, their files in the data folder, their problems and saved mappings (docs/import.md). */
export class ImportService {
  constructor(private readonly services: { db: Db; jobs: JobQueue; audit: AuditService; dataDir: string }) {}

  /** Where an import's upload is kept until its records are written (the job reads it again as a stream). */
  fileOf(importId: string): string {
    return path.join(this.services.dataDir, 'imports', `${importId}.upload`);
  }

  /** Streams an upload to a file of its own in the data folder (never held in memory); its path. */
  async receive(stream: Readable): Promise<string> {
    const file = path.join(this.services.dataDir, 'imports', `upload-${randomUUID()}.part`);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      await pipeline(stream, createWriteStream(file, { mode: 0o600 }));
    } catch (err) {
      await rm(file, { force: true });
      throw err;
    }
    if ((stream as { truncated?: boolean }).truncated) {
      await rm(file, { force: true });
      throw httpError.tooLarge('file', `The file is larger than ${IMPORT_MAX_MB} MB`);
    }
    return file;
  }

  /** Checks every row of a received file and answers what the check found; nothing of the records is written. */
  async check(received: string, fileName: string, category: CategoryDef, mapping: ImportMapping | undefined, actor: Actor): Promise<ImportCheck> {
    const { db } = this.services;
    const head = Buffer.alloc(4);
    const handle = await open(received);
    await handle.read(head, 0, 4, 0);
    await handle.close();
    const format = formatOf(head);
    const [row] = await db.insert(imports).values({ ownerId: actor.id, category: category.slug, fileName: fileName.slice(0, 300), format, mapping: mapping ?? {} }).returning({ id: imports.id });
    const id = row!.id;
    const file = this.fileOf(id);
    try {
      await rename(received, file);
      const result = await checkFile(db, { importId: id, file, category, mapping, actor }).catch((err: unknown) => {
        if (err instanceof AppError) throw err;
        // A file the readers cannot read (a broken zip, a quote never closed) is the upload's fault.
        throw httpError.badRequest({ file: `The file could not be read as ${format === 'xlsx' ? 'an Excel workbook' : 'CSV'}: ${err instanceof Error ? err.message.slice(0, 200) : 'unknown error'}` });
      });
      if (!result.columns.some((c) => c.trim())) throw httpError.badRequest({ file: 'The file is empty' });
      await db.update(imports).set({ mapping: result.mapping, rows: result.rows, valid: result.valid, alreadyImported: result.alreadyImported, updatedAt: new Date() }).where(eq(imports.id, id));
      return { id, category: category.slug, ...result };
    } catch (err) {
      await this.forget(id);
      await rm(received, { force: true });
      throw err;
    }
  }

  private async forget(id: string) {
    await this.services.db.delete(importProblems).where(eq(importProblems.importId, id));
    await this.services.db.delete(imports).where(eq(imports.id, id));
    await rm(this.fileOf(id), { force: true });
  }

  /** The import, for its owner or staff (404 for anyone else, as if it did not exist). */
  async find(id: string, actor: Actor) {
    const [row] = await this.services.db.select().from(imports).where(eq(imports.id, id));
    if (!row || !can.modify(actor, { userId: row.ownerId })) throw httpError.notFound();
    return row;
  }

  progressOf(row: typeof imports.$inferSelect): ImportProgress {
    const { id, category, fileName, rows, valid, done, created, skipped, failed, alreadyImported, lastError } = row;
    return { id, category, fileName, status: row.status as ImportProgress['status'], rows, valid, done, total: rows, created, skipped, failed, alreadyImported, lastError, createdAt: row.createdAt.toISOString() };
  }

  async list(actor: Actor, limit: number, offset: number): Promise<ImportProgress[]> {
    // Staff see every import: those who may change anyone's records (a record of no one's).
    const staff = can.modify(actor, { userId: null });
    const rows = await this.services.db.select().from(imports).where(staff ? undefined : eq(imports.ownerId, actor.id)).orderBy(desc(imports.createdAt)).limit(limit).offset(offset);
    return rows.map((r) => this.progressOf(r));
  }

  /** Queues the commit job; a cancelled or failed import may be committed again (it goes on where it stopped). */
  async commit(id: string, body: ImportCommit, actor: Actor): Promise<ImportProgress> {
    const row = await this.find(id, actor);
    if (!['checked', 'cancelled', 'failed'].includes(row.status)) throw httpError.conflict({ message: `The import is ${row.status}: only a checked, cancelled or failed import can be committed` });
    const decisions = { '*': body.duplicates, ...body.decisions };
    return this.services.db.transaction(async (tx) => {
      const jobId = await this.services.jobs.enqueue(IMPORT_JOB, { importId: id }, { maxAttempts: IMPORT_JOB_ATTEMPTS }, tx);
      const [updated] = await tx.update(imports).set({ status: 'queued', decisions, jobId, lastError: null, updatedAt: new Date() }).where(eq(imports.id, id)).returning();
      return this.progressOf(updated!);
    });
  }

  async cancel(id: string, actor: Actor): Promise<ImportProgress> {
    const row = await this.find(id, actor);
    if (!['queued', 'running'].includes(row.status)) return this.progressOf(row);
    const [updated] = await this.services.db.update(imports).set({ status: 'cancelled', updatedAt: new Date() }).where(eq(imports.id, id)).returning();
    return this.progressOf(updated!);
  }

  /** DELETE: every record the import created, to the trash in one transaction, each with its audit entry. */
  async trash(id: string, actor: Actor): Promise<{ trashed: number; category: string }> {
    const row = await this.find(id, actor);
    const at = new Date();
    const trashed = await this.services.db.transaction(async (tx) => {
      await tx.update(imports).set({ status: 'trashed', updatedAt: new Date() }).where(eq(imports.id, id));
      const moved = await tx
        .update(records)
        .set({ deletedAt: at, deletedBy: actor.id })
        .where(and(isNull(records.deletedAt), inArray(records.id, tx.select({ id: importRows.recordId }).from(importRows).where(and(eq(importRows.importId, id), eq(importRows.outcome, 'created'))))))
        .returning({ id: records.id });
      for (const { id: recordId } of moved) {
        await this.services.audit.append({ actor, action: 'delete', category: row.category, recordId, changes: { deletedAt: { before: null, after: at.toISOString() }, deletedBy: { before: null, after: actor.id }, importId: { before: null, after: id } } }, tx);
      }
      return moved.length;
    });
    await rm(this.fileOf(id), { force: true });
    return { trashed, category: row.category };
  }

  async problems(id: string, actor: Actor, limit: number, offset: number) {
    await this.find(id, actor);
    const where = eq(importProblems.importId, id);
    const rows = await this.services.db.select({ row: importProblems.row, kind: importProblems.kind, field: importProblems.field, message: importProblems.message }).from(importProblems).where(where).orderBy(asc(importProblems.row), asc(importProblems.seq)).limit(limit).offset(offset);
    const [total] = await this.services.db.select({ n: count() }).from(importProblems).where(where);
    return { rows: rows as { row: number; kind: 'error' | 'duplicate'; field: string; message: string }[], total: Number(total?.n ?? 0) };
  }

  /** Every problem, a page at a time (for the CSV download). */
  async *allProblems(id: string, actor: Actor) {
    for (let offset = 0; ; offset += 1000) {
      const { rows } = await this.problems(id, actor, 1000, offset);
      if (!rows.length) return;
      yield rows;
    }
  }

  async savedMappings(actor: Actor, category: string) {
    const rows = await this.services.db.select().from(importMappings).where(and(eq(importMappings.ownerId, actor.id), eq(importMappings.category, category))).orderBy(asc(importMappings.name));
    return rows.map((r) => ({ id: r.id, category: r.category, name: r.name, mapping: r.mapping as ImportMapping, createdAt: r.createdAt.toISOString() }));
  }

  async saveMapping(actor: Actor, category: string, name: string, mapping: ImportMapping) {
    const [row] = await this.services.db
      .insert(importMappings)
      .values({ ownerId: actor.id, category, name, mapping })
      .onConflictDoUpdate({ target: [importMappings.ownerId, importMappings.category, importMappings.name], set: { mapping, createdAt: sql`now()` } })
      .returning();
    return { id: row!.id, category: row!.category, name: row!.name, mapping: row!.mapping as ImportMapping, createdAt: row!.createdAt.toISOString() };
  }

  /** A job try that failed: kept on the import so the screen says why; the last try marks it failed. */
  async failed(id: string, err: unknown, attempts: number): Promise<void> {
    const reason = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
    await this.services.db
      .update(imports)
      .set({ lastError: reason, status: attempts >= IMPORT_JOB_ATTEMPTS ? 'failed' : 'queued', updatedAt: new Date() })
      .where(and(eq(imports.id, id), inArray(imports.status, ['queued', 'running'])));
  }
}
