import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AuditChainReport } from '@app/shared';
import { TimestampTrust, verifyTimestamp, type TimestampChain } from './timestamping';
import { fileMadeOnce } from '../data-dir-file';

/**
 * Checkpoints of the audit chain: "entry `seq` has hash `hash`", signed with the site's Ed25519 key. The chain alone
 * shows an entry changed or removed in its middle, but not its newest entries cut off, nor the whole chain rebuilt
 * with new hashes by someone who can write to the database. A checkpoint kept outside the database (fetched from
 * /api/v1.0.0/audit/checkpoints by anyone, or time-stamped) pins the chain up to its entry: the rebuilt chain no
 * longer reaches it, and a new checkpoint would need the site's private key.
 */

interface CheckpointStatement {
  seq: number;
  hash: string;
  at: Date;
}

export interface SignedCheckpoint extends CheckpointStatement {
  keyId: string;
  publicKey: string;
  signature: string;
  /** RFC 3161 token (DER, base64) over the statement, when a time-stamping authority signed it. */
  timestampToken?: string | null;
}

/** The bytes that are signed: versioned, one field a line, so no two statements share a byte string. */
export function statementBytes(c: CheckpointStatement): Buffer {
  return Buffer.from(`audit-checkpoint v1\n${c.seq}\n${c.hash}\n${c.at.toISOString()}\n`);
}

export function keyIdOf(publicKeyPem: string): string {
  return createHash('sha256').update(publicKeyPem.trim()).digest('hex');
}

/** The site's signing key: from AUDIT_SIGNING_KEY (PEM), else generated once into the data folder. */
export class AuditSigner {
  readonly publicKeyPem: string;
  readonly keyId: string;

  private constructor(private readonly privateKey: KeyObject) {
    this.publicKeyPem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString().trim();
    this.keyId = keyIdOf(this.publicKeyPem);
  }

  static fromPem(pem: string): AuditSigner {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'ed25519') throw new Error('AUDIT_SIGNING_KEY: must be an Ed25519 private key in PEM');
    return new AuditSigner(key);
  }

  /** The key kept in `DATA_DIR/audit-signing-key.pem` (made on first use, readable by the site's user only). */
  static forDataDir(dataDir: string): AuditSigner {
    const pem = fileMadeOnce(signingKeyFile(dataDir), () =>
      generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    );
    return AuditSigner.fromPem(pem);
  }

  sign(statement: CheckpointStatement): SignedCheckpoint {
    return { ...statement, keyId: this.keyId, publicKey: this.publicKeyPem, signature: this.signBytes(statementBytes(statement)) };
  }

  /** A base64 signature over `bytes` (a checkpoint's statement, or a successor key this key vouches for). */
  signBytes(bytes: Buffer): string {
    return sign(null, bytes, this.privateKey).toString('base64');
  }
}

export const signingKeyFile = (dataDir: string) => path.join(dataDir, 'audit-signing-key.pem');

/** The key the site signs with: AUDIT_SIGNING_KEY when set, else the data folder's (made there on first use). */
export function siteSigner(config: { AUDIT_SIGNING_KEY?: string | undefined; dataDir: string }): AuditSigner {
  return config.AUDIT_SIGNING_KEY ? AuditSigner.fromPem(config.AUDIT_SIGNING_KEY) : AuditSigner.forDataDir(config.dataDir);
}

/**
 * The key signing before this one, when its private half is still at hand: the data folder's key, when the site now
 * signs with AUDIT_SIGNING_KEY. Null otherwise.
 */
export function previousSigner(config: { AUDIT_SIGNING_KEY?: string | undefined; dataDir: string }): AuditSigner | null {
  if (!config.AUDIT_SIGNING_KEY || !existsSync(signingKeyFile(config.dataDir))) return null;
  return AuditSigner.fromPem(readFileSync(signingKeyFile(config.dataDir), 'utf8'));
}

function signatureValid(c: SignedCheckpoint): boolean {
  try {
    return verify(null, statementBytes(c), createPublicKey(c.publicKey), Buffer.from(c.signature, 'base64'));
  } catch {
    return false;
  }
}

interface ChainEntry {
  seq: number;
  hash: string;
  prevHash: string;
}

/** The report of a chain check (the API's GET /audit/verify answer). */
export type ChainReport = AuditChainReport;

/**
 * Walks a chain, checking each entry's hash (`hashOf`) and link, and every checkpoint against it: signed by a trusted
 * key, and naming an entry that exists with exactly that hash. Shared by GET /audit/verify and the offline check of
 * an exported chain, so both prove the same thing.
 */
export async function verifyChain<E extends ChainEntry>(
  entries: AsyncIterable<E>,
  hashOf: (prevHash: string, entry: E) => string,
  checkpoints: SignedCheckpoint[],
  trustedKeyIds: Set<string>,
  genesisHash: string,
): Promise<ChainReport> {
  const bySeq = new Map<number, SignedCheckpoint[]>();
  for (const c of checkpoints) bySeq.set(c.seq, [...(bySeq.get(c.seq) ?? []), c]);
  const fail = (entries: number, seq: number | null, reason: string): ChainReport => ({
    ok: false,
    entries,
    firstBrokenSeq: seq,
    reason,
    checkpoints: checkpoints.length,
    newestCheckpointSeq: null,
  });
  for (const c of checkpoints) {
    if (!trustedKeyIds.has(c.keyId) || keyIdOf(c.publicKey) !== c.keyId) {
      return fail(0, c.seq, `the checkpoint at entry ${c.seq} is signed by a key the site does not trust (${c.keyId.slice(0, 16)}...)`);
    }
    if (!signatureValid(c)) return fail(0, c.seq, `the checkpoint at entry ${c.seq} has a signature that does not verify`);
  }
  let prevHash = genesisHash;
  let count = 0;
  let lastSeq = 0;
  for await (const entry of entries) {
    count++;
    if (entry.prevHash !== prevHash) return fail(count, entry.seq, 'an entry before this one was removed or changed');
    if (hashOf(prevHash, entry) !== entry.hash) return fail(count, entry.seq, 'this entry was changed after it was written');
    for (const c of bySeq.get(entry.seq) ?? []) {
      if (c.hash !== entry.hash) return fail(count, entry.seq, `this entry's hash is not the one its signed checkpoint names: the chain up to it was rewritten`);
    }
    bySeq.delete(entry.seq);
    prevHash = entry.hash;
    lastSeq = entry.seq;
  }
  const unreached = [...bySeq.keys()].sort((a, b) => a - b);
  if (unreached.length) {
    return fail(count, unreached[0]!, `a signed checkpoint names entry ${unreached[0]}, which is not in the chain: entries were removed (the chain ends at ${lastSeq})`);
  }
  const newest = checkpoints.reduce<number | null>((max, c) => (max === null || c.seq > max ? c.seq : max), null);
  return { ok: true, entries: count, firstBrokenSeq: null, reason: null, checkpoints: checkpoints.length, newestCheckpointSeq: newest };
}

/**
 * Every time-stamp token must be for its checkpoint's statement and verify (against `trust`, TSA_CA_FILE's
 * authorities, when given); a chain report that was fine says how many did and whether their certificates were
 * checked against trusted authorities, and one with a token that does not verify is no longer fine.
 */
export async function checkTimestamps(report: ChainReport, checkpoints: SignedCheckpoint[], trust: TimestampTrust = TimestampTrust.unchecked): Promise<ChainReport> {
  let timestamped = 0;
  let chain: TimestampChain = trust.certificates ? 'trusted' : 'not-checked';
  for (const c of checkpoints) {
    if (!c.timestampToken) continue;
    try {
      chain = (await verifyTimestamp(Buffer.from(c.timestampToken, 'base64'), statementBytes(c), trust)).chain;
      timestamped++;
    } catch (err) {
      return { ...report, ok: false, firstBrokenSeq: c.seq, reason: `the time-stamp of the checkpoint at entry ${c.seq} does not verify: ${(err as Error).message}` };
    }
  }
  return {
    ...report,
    timestamped,
    timestampChain: chain,
    ...(timestamped && chain === 'not-checked'
      ? { timestampNote: "the time-stamps' certificates were not checked against trusted authorities: TSA_CA_FILE is not set" }
      : {}),
  };
}
