import { createHash } from 'node:crypto';
import { and, asc, desc, eq, gt, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Actor } from '@app/shared';
import type { Db } from '../db';
import { auditCheckpoints, auditLog, type AuditCheckpointRow, type AuditRow } from '../db/schema';
import { checkTimestamps, statementBytes, verifyChain, type AuditSigner, type ChainReport } from './audit-checkpoints';
import { KEY_INTRODUCED, historyProblem, introducedKeys, introductionChanges, type IntroducedKey, type KeyIntroductionReason } from './audit-keys';
import { requestTimestamp, TimestampRejected, type TimestampTrust } from './timestamping';
import { canonicalJson } from './canonical-json';

export const GENESIS_HASH = '0'.repeat(64);
/** Advisory lock key serialising appends, so each entry links to the one before it. */
const AUDIT_LOCK_KEY = 7_301_777;
/** A checkpoint whose time-stamp token failed verification is asked for again after this long. */
const TIMESTAMP_RETRY_MS = 3_600_000;

type Changes = Record<string, { before: unknown; after: unknown }>;

interface AuditEntry {
  actor: Actor | null;
  action: string;
  category?: string | null;
  recordId?: string | null;
  subject?: string | null;
  changes?: Changes;
}

/** A transaction handle or the database itself: appends join the caller's transaction when given one. */
type Executor = Pick<Db, 'select' | 'insert' | 'execute'>;

/** What an entry's hash covers, as JSON: custody files carry exactly this, so a reader can hash it again. */
export function hashedFields(row: Omit<AuditRow, 'seq' | 'hash' | 'prevHash'>) {
  return {
    at: row.at.toISOString(),
    actorId: row.actorId,
    actorRole: row.actorRole,
    action: row.action,
    category: row.category,
    recordId: row.recordId,
    subject: row.subject,
    changes: row.changes,
  };
}

export function entryHash(prevHash: string, row: Omit<AuditRow, 'seq' | 'hash' | 'prevHash'>): string {
  const content = canonicalJson(hashedFields(row));
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

interface CheckpointOptions {
  signer: AuditSigner;
  /** A checkpoint is written with every `every`-th entry, in that entry's transaction. */
  every: number;
  /** The time-stamping authorities trusted (TSA_CA_FILE); without them a token's chain is not checked. */
  tsaTrust?: TimestampTrust;
}

export class AuditService {
  constructor(
    private readonly db: Db,
    private readonly checkpointing?: CheckpointOptions,
  ) {}

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
    if (this.checkpointing && inserted!.seq % this.checkpointing.every === 0) {
      await tx.insert(auditCheckpoints).values(this.checkpointing.signer.sign({ seq: inserted!.seq, hash, at }));
    }
    return inserted!;
  }

  /**
   * Signs the chain's head unless the newest checkpoint already names it (the daily checkpoint, and on demand).
   * Returns the new checkpoint, or null when there was nothing new.
   */
  async checkpoint(): Promise<AuditCheckpointRow | null> {
    const checkpointing = this.checkpointing;
    if (!checkpointing) throw new Error('audit checkpoints: no signing key configured');
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK_KEY})`);
      const [head] = await tx.select({ seq: auditLog.seq, hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
      if (!head) return null;
      const [newest] = await tx.select({ seq: auditCheckpoints.seq }).from(auditCheckpoints).orderBy(desc(auditCheckpoints.seq)).limit(1);
      if (newest && newest.seq >= head.seq) return null;
      const [row] = await tx
        .insert(auditCheckpoints)
        .values(checkpointing.signer.sign({ seq: head.seq, hash: head.hash, at: new Date() }))
        .returning();
      return row!;
    });
  }

  /**
   * Records `key` as the key that signs from now on, unless it is already the newest key introduced (one entry per
   * change of key, however many processes start at once). `previous` vouches for it when it is the key before.
   */
  async introduceKey(key: { keyId: string; publicKeyPem: string }, reason: KeyIntroductionReason, previous?: AuditSigner | null): Promise<AuditRow | null> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK_KEY})`);
      const newest = (await introducedKeys(tx)).at(-1) ?? null;
      if (newest?.keyId === key.keyId) return null;
      const changes = introductionChanges(key, newest?.keyId ?? null, newest ? reason : 'first key', previous ?? undefined);
      return this.append({ actor: null, action: KEY_INTRODUCED, subject: key.keyId, changes }, tx);
    });
  }

  /**
   * After a restore: every key that signed a restored checkpoint and is not in the restored key history (a backup of
   * a site from before the history was kept) is trusted from now on, as the restore has just checked its signatures.
   */
  async trustRestoredKeys(): Promise<string[]> {
    const known = new Set((await introducedKeys(this.db)).map((k) => k.keyId));
    const added: string[] = [];
    for (const c of await this.listCheckpoints()) {
      if (known.has(c.keyId)) continue;
      known.add(c.keyId);
      if (await this.introduceKey({ keyId: c.keyId, publicKeyPem: c.publicKey }, 'signed the checkpoints of a restored backup')) added.push(c.keyId);
    }
    return added;
  }

  async signingKeys(): Promise<IntroducedKey[]> {
    return introducedKeys(this.db);
  }

  /**
   * Time-stamps the checkpoints that have no token yet at the authority `tsaUrl` (RFC 3161), oldest first. Each token
   * is verified on receipt (timestamping.ts); one that does not verify is recorded as the checkpoint's failed
   * time-stamp (`timestamp_failure`), never kept as its token, and asked for again an hour later. An authority that
   * cannot be reached stops the round: the checkpoints are tried again next time. Returns how many were stamped.
   */
  async stampCheckpoints(tsaUrl: string, limit = 20): Promise<number> {
    const retryFailedBefore = new Date(Date.now() - TIMESTAMP_RETRY_MS);
    const pending = await this.db
      .select()
      .from(auditCheckpoints)
      .where(and(isNull(auditCheckpoints.timestampToken), or(isNull(auditCheckpoints.timestampFailedAt), lt(auditCheckpoints.timestampFailedAt, retryFailedBefore))))
      .orderBy(asc(auditCheckpoints.id))
      .limit(limit);
    let stamped = 0;
    for (const c of pending) {
      try {
        const { token, time } = await requestTimestamp(tsaUrl, statementBytes(c), this.checkpointing?.tsaTrust);
        await this.db
          .update(auditCheckpoints)
          .set({ timestampToken: token.toString('base64'), timestampedAt: time, timestampFailure: null, timestampFailedAt: null })
          .where(eq(auditCheckpoints.id, c.id));
        stamped++;
      } catch (err) {
        if (!(err instanceof TimestampRejected)) throw err;
        await this.db
          .update(auditCheckpoints)
          .set({ timestampFailure: err.message.slice(0, 1000), timestampFailedAt: new Date() })
          .where(eq(auditCheckpoints.id, c.id));
      }
    }
    return stamped;
  }

  async listCheckpoints(): Promise<AuditCheckpointRow[]> {
    return this.db.select().from(auditCheckpoints).orderBy(asc(auditCheckpoints.seq), asc(auditCheckpoints.id));
  }

  async newestCheckpoint(): Promise<AuditCheckpointRow | null> {
    const [row] = await this.db.select().from(auditCheckpoints).orderBy(desc(auditCheckpoints.at)).limit(1);
    return row ?? null;
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

  /**
   * Re-computes the chain from the first entry and checks every checkpoint against it (signed by a key the site has
   * signed with, naming an entry that exists with that hash); reports the first thing that does not match.
   */
  async verify(): Promise<ChainReport> {
    const db = this.db;
    async function* entries() {
      let afterSeq = 0;
      for (;;) {
        const batch = await db.select().from(auditLog).where(gt(auditLog.seq, afterSeq)).orderBy(asc(auditLog.seq)).limit(1000);
        if (!batch.length) return;
        yield* batch;
        afterSeq = batch.at(-1)!.seq;
      }
    }
    const checkpoints = await this.listCheckpoints();
    const keys = await introducedKeys(db);
    const broken = historyProblem(keys);
    if (broken) {
      return { ok: false, entries: 0, firstBrokenSeq: broken.seq, reason: broken.reason, checkpoints: checkpoints.length, newestCheckpointSeq: null };
    }
    // The site trusts the keys of its own history (audit entries, so a rewritten history breaks the chain) and its
    // current key. Without the site's key (a copy checked by restore or migrate-from-pglite) a checkpoint is trusted
    // for its own signature only: the copy must agree with itself; whether the key is the site's is for the site.
    const trusted = new Set([...keys.map((k) => k.keyId), ...(this.checkpointing ? [this.checkpointing.signer.keyId] : checkpoints.map((c) => c.keyId))]);
    const report = await verifyChain(entries(), entryHash, checkpoints, trusted, GENESIS_HASH);
    return report.ok ? checkTimestamps(report, checkpoints, this.checkpointing?.tsaTrust) : report;
  }
}
