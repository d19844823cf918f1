import { and, asc, eq, gte, inArray, lte, or } from 'drizzle-orm';
import { isWithheldPlaceholder, type Source } from '@app/shared';
import type { Db } from '../../db';
import { auditLog, records, type AuditCheckpointRow, type AuditRow } from '../../db/schema';
import { KEY_INTRODUCED } from '../../services/audit-keys';
import { hashedFields } from '../../services/audit';

/**
 * `data/custody.ndjson`: the audit entries about the package's records (their writes, files, captures, packagings),
 * and what links each one to a signed checkpoint. An entry's hash covers the one before it, so proving that entry n
 * was in the chain a checkpoint at entry m signed takes every entry from n to m: the "linking" entries. Those about
 * other things are included whole when nothing in them is private (about a public record, without withheld testimony;
 * or a role or campaign change); any other is sealed: its seq and hashes only, its content left out. The link through a sealed
 * entry rests on the hash the site states for it, and verify-package says so for every entry whose link crosses one.
 */

export type CustodyRole = 'record' | 'key' | 'link';

export interface CustodyEntryLine {
  type: 'entry';
  role: CustodyRole;
  seq: number;
  prevHash: string;
  hash: string;
  /** Why the content was left out; absent when the entry is whole. */
  sealed?: string;
  at?: string;
  actorId?: string | null;
  actorRole?: string | null;
  action?: string;
  category?: string | null;
  recordId?: string | null;
  subject?: string | null;
  changes?: AuditRow['changes'];
}

export interface CustodyCheckpointLine {
  type: 'checkpoint';
  seq: number;
  hash: string;
  at: string;
  keyId: string;
  publicKey: string;
  signature: string;
  timestampToken: string | null;
}

export interface Custody {
  entries: CustodyEntryLine[];
  checkpoints: CustodyCheckpointLine[];
  /** Entries about the package's records (role `record`) after the newest checkpoint: linked to none. */
  unlinked: number[];
}

/**
 * Entries about no record that may leave whole: role changes and the campaign's state changes (ids and states, no
 * person's details). Every other kind (accounts, testimony intake, kinds added later) is sealed unless listed here.
 */
const WHOLE_WITHOUT_RECORD = /^(user\.role|campaign\.[a-z_.]+)$/;

/** Whether a value holds a withheld testimony's details (anything marked withheld that is not the placeholder). */
export function holdsWithheld(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsWithheld);
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  if (v.withheld === true && !isWithheldPlaceholder(v as unknown as Source)) return true;
  return Object.values(v).some(holdsWithheld);
}

/** The runs of seq [from, to] that cover each wanted entry and the checkpoint after it, overlapping runs merged. */
function linkRuns(wanted: number[], checkpointSeqs: number[]): { runs: [number, number][]; unlinked: number[] } {
  const runs: [number, number][] = [];
  const unlinked: number[] = [];
  for (const seq of wanted) {
    const to = checkpointSeqs.find((c) => c >= seq);
    if (to === undefined) {
      unlinked.push(seq);
      continue;
    }
    const last = runs.at(-1);
    if (last && seq <= last[1] + 1) last[1] = Math.max(last[1], to);
    else runs.push([seq, to]);
  }
  return { runs, unlinked };
}

function entryLine(row: AuditRow, role: CustodyRole, sealed: string | null): CustodyEntryLine {
  const base = { type: 'entry' as const, role, seq: row.seq, prevHash: row.prevHash, hash: row.hash };
  if (sealed) return { ...base, sealed };
  return { ...base, ...hashedFields(row) };
}

/** Records that are public and live, of those the linking entries name: the others' entries are sealed. */
async function publicRecords(db: Db, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db.select({ id: records.id, public: records.public, deletedAt: records.deletedAt }).from(records).where(inArray(records.id, ids));
  return new Set(rows.filter((r) => r.public && !r.deletedAt).map((r) => r.id));
}

export async function readCustody(db: Db, recordIds: string[], checkpoints: AuditCheckpointRow[], includeWithheld: boolean): Promise<Custody> {
  const own = new Set(recordIds);
  const wanted = await db
    .select({ seq: auditLog.seq })
    .from(auditLog)
    .where(or(inArray(auditLog.recordId, recordIds.length ? recordIds : ['00000000-0000-0000-0000-000000000000']), eq(auditLog.action, KEY_INTRODUCED)))
    .orderBy(asc(auditLog.seq));
  const checkpointSeqs = [...new Set(checkpoints.map((c) => c.seq))].sort((a, b) => a - b);
  const { runs, unlinked } = linkRuns(
    wanted.map((w) => w.seq),
    checkpointSeqs,
  );
  const rows: AuditRow[] = [];
  for (const [from, to] of runs) rows.push(...(await db.select().from(auditLog).where(and(gte(auditLog.seq, from), lte(auditLog.seq, to))).orderBy(asc(auditLog.seq))));
  for (const seq of unlinked) rows.push(...(await db.select().from(auditLog).where(eq(auditLog.seq, seq))));
  const others = [...new Set(rows.filter((r) => r.recordId && !own.has(r.recordId)).map((r) => r.recordId!))];
  const readable = await publicRecords(db, others);
  const entries = rows.map((row) => {
    const role: CustodyRole = row.action === KEY_INTRODUCED ? 'key' : row.recordId && own.has(row.recordId) ? 'record' : 'link';
    let sealed: string | null = null;
    if (role === 'record' && !includeWithheld && holdsWithheld(row.changes)) sealed = 'holds a withheld witness testimony, which this package leaves out';
    if (role === 'link' && holdsWithheld(row.changes)) sealed = 'holds a withheld witness testimony of another record';
    if (role === 'link' && !sealed && row.recordId && !readable.has(row.recordId)) sealed = 'about another record that is not public';
    if (role === 'link' && !sealed && !row.recordId && !WHOLE_WITHOUT_RECORD.test(row.action)) sealed = 'not about a public record';
    return entryLine(row, role, sealed);
  });
  const ends = new Set(runs.map(([, to]) => to));
  return {
    entries,
    checkpoints: checkpoints
      .filter((c) => ends.has(c.seq))
      .map((c) => ({ type: 'checkpoint', seq: c.seq, hash: c.hash, at: c.at.toISOString(), keyId: c.keyId, publicKey: c.publicKey, signature: c.signature, timestampToken: c.timestampToken })),
    unlinked,
  };
}
