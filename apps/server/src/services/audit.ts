import { createHash } from 'node:crypto';
import { and, asc, desc, eq, gt, sql, type SQL } from 'drizzle-orm';
import type { Actor } from '@app/shared';
import type { Db } from '../db';
import { auditLog, type AuditRow } from '../db/schema';
import { canonicalJson } from './canonical-json';

export const GENESIS_HASH = '0'.repeat(64);
/** Advisory lock key serialising appends, so each entry links to the one before it. */
const AUDIT_LOCK_KEY = 7_301_777;

export type Changes = Record<string, { before: unknown; after: unknown }>;

export interface AuditEntry {
  actor: Actor | null;
  action: string;
  category?: string | null;
  recordId?: string | null;
  subject?: string | null;
  changes?: Changes;
}

/** A transaction handle or the database itself: appends join the caller's transaction when given one. */
type Executor = Pick<Db, 'select' | 'insert' | 'execute'>;

function entryHash(prevHash: string, row: Omit<AuditRow, 'seq' | 'hash' | 'prevHash'>): string {
  const content = canonicalJson({
    at: row.at.toISOString(),
    actorId: row.actorId,
    actorRole: row.actorRole,
    action: row.action,
    category: row.category,
    recordId: row.recordId,
    subject: row.subject,
    changes: row.changes,
  });
  return createHash('sha256').update(prevHash).update('\n').update(content).digest('hex');
}

/** Lists what changed between two versions of a row, as JSON-safe before/after pairs. */
export function diffFields(before: Record<string, unknown> | null, after: Record<string, unknown> | null, fields: string[]): Changes {
  const out: Changes = {};
  for (const field of fields) {
    const b = normalise(before?.[field]);
    const a = normalise(after?.[field]);
    if (canonicalJson(b) !== canonicalJson(a)) out[field] = { before: b, after: a };
  }
  return out;
}

function normalise(v: unknown): unknown {
  if (v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  return v;
}

export class AuditService {
  constructor(private readonly db: Db) {}

  /**
   * Appends one entry inside `tx` (or its own transaction). Callers pass their write's transaction so the record
   * change and its audit entry commit together.
   */
  async append(entry: AuditEntry, tx?: Executor): Promise<AuditRow> {
    if (!tx) return this.db.transaction((t) => this.append(entry, t));
    await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK_KEY})`);
    const [last] = await tx.select({ hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    const prevHash = last?.hash ?? GENESIS_HASH;
    // Millisecond precision, so the value read back from the database hashes the same.
    const at = new Date(Math.floor(Date.now()));
    const row = {
      at,
      actorId: entry.actor?.id ?? null,
      actorRole: entry.actor?.role ?? null,
      action: entry.action,
      category: entry.category ?? null,
      recordId: entry.recordId ?? null,
      subject: entry.subject ?? null,
      changes: JSON.parse(canonicalJson(entry.changes ?? {})) as Changes,
    };
    const hash = entryHash(prevHash, row);
    const [inserted] = await tx.insert(auditLog).values({ ...row, prevHash, hash }).returning();
    return inserted!;
  }

  async list(options: { limit: number; offset: number; recordId?: string; actorId?: string }) {
    const where: SQL[] = [];
    if (options.recordId) where.push(eq(auditLog.recordId, options.recordId));
    if (options.actorId) where.push(eq(auditLog.actorId, options.actorId));
    const cond = where.length ? and(...where) : undefined;
    const [rows, [count]] = await Promise.all([
      this.db.select().from(auditLog).where(cond).orderBy(desc(auditLog.seq)).limit(options.limit).offset(options.offset),
      this.db.select({ n: sql<number>`count(*)::int` }).from(auditLog).where(cond),
    ]);
    return { rows, total: count?.n ?? 0 };
  }

  /** Re-computes the chain from the first entry; reports the first entry that does not match. */
  async verify(): Promise<{ ok: boolean; entries: number; firstBrokenSeq: number | null; reason: string | null }> {
    let prevHash = GENESIS_HASH;
    let afterSeq = 0;
    let entries = 0;
    for (;;) {
      const batch = await this.db.select().from(auditLog).where(gt(auditLog.seq, afterSeq)).orderBy(asc(auditLog.seq)).limit(1000);
      if (!batch.length) break;
      for (const row of batch) {
        entries++;
        if (row.prevHash !== prevHash) {
          return { ok: false, entries, firstBrokenSeq: row.seq, reason: 'an entry before this one was removed or changed' };
        }
        if (entryHash(prevHash, row) !== row.hash) {
          return { ok: false, entries, firstBrokenSeq: row.seq, reason: 'this entry was changed after it was written' };
        }
        prevHash = row.hash;
        afterSeq = row.seq;
      }
    }
    return { ok: true, entries, firstBrokenSeq: null, reason: null };
  }
}
