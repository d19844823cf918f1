import type { Database } from '../../db';
import type { AuditRow } from '../../db/schema';
import { AuditService } from '../../services/audit';
import type { SignedCheckpoint } from '../../services/audit-checkpoints';

/**
 * The audit chain as JSON lines (docs/audit.md, "Checking the chain yourself"): every entry oldest first, then every
 * signed checkpoint. Written by `audit:export` to a file and by GET /audit/export to staff, read back by `audit:verify`,
 * and checkable with nothing but SHA-256 and an Ed25519 verifier, from the formats that page gives.
 */

export type ExportLine = ({ type: 'entry' } & Omit<AuditRow, 'at'> & { at: string }) | ({ type: 'checkpoint' } & Omit<SignedCheckpoint, 'at'> & { at: string });

/** Entries read per statement: the chain is walked a batch at a time, never held whole. */
const BATCH = 1000;

export async function* chainLines(database: Database, counts = { entries: 0, checkpoints: 0 }): AsyncGenerator<string> {
  // Read before the entries (written after them): a checkpoint signed while the chain is walked could name an entry
  // past the walk's end, and the export would then look cut.
  const checkpoints = await new AuditService(database.db).listCheckpoints();
  let afterSeq = 0;
  for (;;) {
    const rows = await database.query<Record<string, unknown>>(
      'select seq, at, actor_id, actor_role, action, category, record_id, subject, changes, prev_hash, hash from audit_log where seq > $1 order by seq limit $2',
      [afterSeq, BATCH],
    );
    if (!rows.length) break;
    let text = '';
    for (const r of rows) {
      const line: ExportLine = {
        type: 'entry',
        seq: Number(r.seq),
        at: new Date(r.at as string).toISOString(),
        actorId: (r.actor_id as string | null) ?? null,
        actorRole: (r.actor_role as string | null) ?? null,
        action: r.action as string,
        category: (r.category as string | null) ?? null,
        recordId: (r.record_id as string | null) ?? null,
        subject: (r.subject as string | null) ?? null,
        changes: (typeof r.changes === 'string' ? JSON.parse(r.changes) : r.changes) as AuditRow['changes'],
        prevHash: r.prev_hash as string,
        hash: r.hash as string,
      };
      text += `${JSON.stringify(line)}\n`;
      counts.entries++;
      afterSeq = line.seq;
    }
    yield text;
  }
  for (const c of checkpoints) {
    const line: ExportLine = {
      type: 'checkpoint',
      seq: c.seq,
      hash: c.hash,
      at: c.at.toISOString(),
      keyId: c.keyId,
      publicKey: c.publicKey,
      signature: c.signature,
      timestampToken: c.timestampToken,
    };
    counts.checkpoints++;
    yield `${JSON.stringify(line)}\n`;
  }
}
