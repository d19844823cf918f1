import { createPublicKey, verify } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db';
import { auditLog, type AuditRow } from '../db/schema';
import { keyIdOf, type AuditSigner } from './audit-checkpoints';

/**
 * The keys a site has signed audit checkpoints with. Each key is introduced by an audit entry of its own (action
 * `audit-key`), so the history travels with the chain (in backups, exports and restores) and is protected by it. A
 * new key is vouched for by the key before it (that key's signature over the new public key) when that key's private
 * half is at hand; a site restored without its old key, or the first key of a site, has no voucher, and says so.
 */

export const KEY_INTRODUCED = 'audit-key';

/** Why a key was introduced, as the audit entry says it. */
export type KeyIntroductionReason = 'first key' | 'new signing key' | 'restored without the previous key' | 'signed the checkpoints of a restored backup';

export interface IntroducedKey {
  seq: number;
  keyId: string;
  publicKey: string;
  previousKeyId: string | null;
  /** The previous key's signature over this key (base64), or null when it was not at hand. */
  vouch: string | null;
  reason: string;
}

/** The bytes a previous key signs to vouch for its successor. */
function vouchBytes(keyId: string, publicKeyPem: string): Buffer {
  return Buffer.from(`audit-key v1\n${keyId}\n${publicKeyPem.trim()}\n`);
}

const after = (row: AuditRow, field: string) => (row.changes as Record<string, { after: unknown } | undefined>)[field]?.after ?? null;

function fromEntry(row: AuditRow): IntroducedKey {
  return {
    seq: row.seq,
    keyId: row.subject ?? '',
    publicKey: String(after(row, 'publicKey') ?? ''),
    previousKeyId: (after(row, 'previousKeyId') as string | null) ?? null,
    vouch: (after(row, 'vouch') as string | null) ?? null,
    reason: String(after(row, 'reason') ?? ''),
  };
}

/** The keys introduced in the chain, oldest first. */
export async function introducedKeys(db: Pick<Db, 'select'>): Promise<IntroducedKey[]> {
  const rows = await db.select().from(auditLog).where(eq(auditLog.action, KEY_INTRODUCED)).orderBy(asc(auditLog.seq));
  return rows.map(fromEntry);
}

/** What an introduction entry records; `previous` signs it when its private key is at hand. */
export function introductionChanges(key: { keyId: string; publicKeyPem: string }, previousKeyId: string | null, reason: KeyIntroductionReason, previous?: AuditSigner) {
  const vouch = previous && previous.keyId === previousKeyId ? previous.signBytes(vouchBytes(key.keyId, key.publicKeyPem)) : null;
  return {
    publicKey: { before: null, after: key.publicKeyPem.trim() },
    previousKeyId: { before: null, after: previousKeyId },
    vouch: { before: null, after: vouch },
    reason: { before: null, after: reason },
  };
}

/**
 * Checks the history itself: each entry names the key its public half hashes to, follows the key before it, and a
 * voucher, when there is one, is that previous key's valid signature. Returns the first problem, or null.
 */
export function historyProblem(keys: IntroducedKey[]): { seq: number; reason: string } | null {
  let previous: IntroducedKey | null = null;
  for (const key of keys) {
    if (!key.publicKey || keyIdOf(key.publicKey) !== key.keyId) return { seq: key.seq, reason: `the key introduced at entry ${key.seq} is not the key it names` };
    if (key.previousKeyId !== (previous?.keyId ?? null)) {
      return { seq: key.seq, reason: `the key introduced at entry ${key.seq} names a previous key that is not the one introduced before it` };
    }
    if (key.vouch && previous && !vouchValid(previous.publicKey, key)) {
      return { seq: key.seq, reason: `the key introduced at entry ${key.seq} carries a signature of the previous key that does not verify` };
    }
    previous = key;
  }
  return null;
}

function vouchValid(previousPublicKey: string, key: IntroducedKey): boolean {
  try {
    return verify(null, vouchBytes(key.keyId, key.publicKey), createPublicKey(previousPublicKey), Buffer.from(key.vouch!, 'base64'));
  } catch {
    return false;
  }
}
