import { createPublicKey, verify } from 'node:crypto';
import { entryHash } from '../../services/audit';
import { keyIdOf, statementBytes } from '../../services/audit-checkpoints';
import { TimestampTrust, verifyTimestamp } from '../../services/timestamping';
import type { CustodyCheckpointLine, CustodyEntryLine } from './custody';
import { checkpointPath } from './layout';
import type { BagFile } from './read-bag';

/**
 * The custody part of verify-package: every whole entry's hash, every link between consecutive entries, every entry
 * about the package's records (and every key introduction) reaching a signed checkpoint, every checkpoint's signature
 * by a trusted key, its files in data/checkpoints/ the same as its line, and every time-stamp token.
 */

export interface Check {
  ok: boolean;
  what: string;
  note?: boolean;
}

export interface CustodyOptions {
  /** The audit key the reader trusts (PEM), or null: the package's own keys, which is said. */
  publicKeyPem: string | null;
  tsaTrust: TimestampTrust;
}

function parse(text: string): { entries: CustodyEntryLine[]; checkpoints: CustodyCheckpointLine[] } {
  const lines = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as CustodyEntryLine | CustodyCheckpointLine);
  return { entries: lines.filter((l): l is CustodyEntryLine => l.type === 'entry'), checkpoints: lines.filter((l): l is CustodyCheckpointLine => l.type === 'checkpoint') };
}

function hashHolds(e: CustodyEntryLine): boolean {
  if (e.sealed) return true;
  const row = { at: new Date(e.at ?? ''), actorId: e.actorId ?? null, actorRole: e.actorRole ?? null, action: e.action ?? '', category: e.category ?? null, recordId: e.recordId ?? null, subject: e.subject ?? null, changes: e.changes ?? {} };
  try {
    return entryHash(e.prevHash, row) === e.hash;
  } catch {
    return false;
  }
}

function signatureHolds(c: CustodyCheckpointLine): boolean {
  try {
    return keyIdOf(c.publicKey) === c.keyId && verify(null, statementBytes({ seq: c.seq, hash: c.hash, at: new Date(c.at) }), createPublicKey(c.publicKey), Buffer.from(c.signature, 'base64'));
  } catch {
    return false;
  }
}

/** Each entry's hash and link; then, for each entry that must be linked, the checkpoint its run reaches. */
function checkLinks(entries: CustodyEntryLine[], bySeq: Map<number, CustodyCheckpointLine[]>, checks: Check[]): void {
  let broken = 0;
  for (const [i, e] of entries.entries()) {
    const before = entries[i - 1];
    if (!hashHolds(e)) {
      broken++;
      checks.push({ ok: false, what: `custody: entry ${e.seq} was changed after it was written (its hash no longer matches)` });
    }
    if (before && before.seq === e.seq - 1 && before.hash !== e.prevHash) {
      broken++;
      checks.push({ ok: false, what: `custody: entry ${e.seq} does not follow entry ${before.seq} (an entry between was changed or removed)` });
    }
    for (const c of bySeq.get(e.seq) ?? []) {
      if (c.hash !== e.hash) {
        broken++;
        checks.push({ ok: false, what: `custody: the checkpoint at entry ${e.seq} names another hash than the entry's` });
      }
    }
  }
  // Backwards: the index of the checkpointed entry each entry's run reaches, and whether a sealed entry lies on the way.
  const reach: ({ seq: number; sealed: number } | null)[] = new Array(entries.length).fill(null);
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    const next = entries[i + 1];
    const onward = next && next.seq === e.seq + 1 ? reach[i + 1] : null;
    reach[i] = bySeq.has(e.seq) ? { seq: e.seq, sealed: e.sealed ? 1 : 0 } : onward ? { seq: onward.seq, sealed: onward.sealed + (e.sealed ? 1 : 0) } : null;
  }
  let linked = 0;
  let resting = 0;
  for (const [i, e] of entries.entries()) {
    if (e.role === 'link') continue;
    const r = reach[i];
    if (!r) {
      broken++;
      checks.push({ ok: false, what: `custody: entry ${e.seq} (${e.role}) is not linked to any signed checkpoint in the package` });
    } else {
      linked++;
      if (r.sealed) resting++;
    }
  }
  if (!broken) checks.push({ ok: true, what: `custody: ${entries.length} entries hash and link correctly; ${linked} entries about the records and keys each reach a signed checkpoint` });
  if (resting) checks.push({ ok: true, note: true, what: `custody: for ${resting} of them the link crosses sealed entries (content left out), and rests on the hashes the site states for those` });
}

/** The keys trusted: the reader's, and the keys its checkpoints pin (introduced at or before the newest it signed). */
function trustedKeys(entries: CustodyEntryLine[], checkpoints: CustodyCheckpointLine[], publicKeyPem: string | null): Set<string> {
  if (!publicKeyPem) return new Set(checkpoints.map((c) => c.keyId));
  const given = keyIdOf(publicKeyPem);
  const pinnedTo = Math.max(0, ...checkpoints.filter((c) => c.keyId === given).map((c) => c.seq));
  const trusted = new Set([given]);
  for (const e of entries) if (e.role === 'key' && e.subject && e.seq <= pinnedTo && !e.sealed) trusted.add(e.subject);
  return trusted;
}

async function checkCheckpoint(c: CustodyCheckpointLine, trusted: Set<string>, files: Map<string, BagFile>, options: CustodyOptions): Promise<Check[]> {
  const checks: Check[] = [];
  const label = `checkpoint at entry ${c.seq}`;
  if (!signatureHolds(c)) checks.push({ ok: false, what: `${label}: its signature does not verify` });
  else if (!trusted.has(c.keyId)) checks.push({ ok: false, what: `${label}: signed by a key you did not give (${c.keyId.slice(0, 16)}...)` });
  else checks.push({ ok: true, what: `${label}: signed by key ${c.keyId.slice(0, 16)}... (Ed25519)` });
  const statement = files.get(`data/${checkpointPath(c.seq, 'statement.txt')}`)?.bytes;
  const signature = files.get(`data/${checkpointPath(c.seq, 'signature.bin')}`)?.bytes;
  const same = statement?.equals(statementBytes({ seq: c.seq, hash: c.hash, at: new Date(c.at) })) && signature?.equals(Buffer.from(c.signature, 'base64'));
  if (!same) checks.push({ ok: false, what: `${label}: data/${checkpointPath(c.seq, 'statement.txt')} or signature.bin differs from custody.ndjson (or is missing)` });
  if (c.timestampToken) {
    try {
      const stamped = await verifyTimestamp(Buffer.from(c.timestampToken, 'base64'), statementBytes({ seq: c.seq, hash: c.hash, at: new Date(c.at) }), options.tsaTrust);
      checks.push({ ok: true, what: `${label}: RFC 3161 time-stamp verifies: ${stamped.time.toISOString()} by ${stamped.authority} (authority chain ${stamped.chain})` });
    } catch (err) {
      checks.push({ ok: false, what: `${label}: its time-stamp does not verify: ${(err as Error).message}` });
    }
    const tsr = files.get(`data/${checkpointPath(c.seq, 'timestamp.tsr')}`)?.bytes;
    if (!tsr?.equals(Buffer.from(c.timestampToken, 'base64'))) checks.push({ ok: false, what: `${label}: data/${checkpointPath(c.seq, 'timestamp.tsr')} differs from custody.ndjson (or is missing)` });
  }
  return checks;
}

export async function checkCustody(files: Map<string, BagFile>, options: CustodyOptions): Promise<Check[]> {
  const text = files.get('data/custody.ndjson')?.bytes?.toString('utf8');
  if (text === undefined) return [{ ok: false, what: 'custody: data/custody.ndjson is missing' }];
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(text);
  } catch {
    return [{ ok: false, what: 'custody: data/custody.ndjson is not JSON lines' }];
  }
  const checks: Check[] = [];
  if (!options.publicKeyPem) checks.push({ ok: true, note: true, what: 'custody: no --key given: checkpoints are checked against the keys the package names, which proves only that it agrees with itself' });
  const bySeq = new Map<number, CustodyCheckpointLine[]>();
  for (const c of parsed.checkpoints) bySeq.set(c.seq, [...(bySeq.get(c.seq) ?? []), c]);
  checkLinks(parsed.entries, bySeq, checks);
  if (!parsed.checkpoints.length) checks.push({ ok: false, what: 'custody: the package holds no signed checkpoint' });
  const present = new Set(parsed.entries.map((e) => e.seq));
  for (const c of parsed.checkpoints) if (!present.has(c.seq)) checks.push({ ok: false, what: `custody: the checkpoint at entry ${c.seq} names an entry the package does not hold` });
  const trusted = trustedKeys(parsed.entries, parsed.checkpoints, options.publicKeyPem);
  for (const c of parsed.checkpoints) checks.push(...(await checkCheckpoint(c, trusted, files, options)));
  return checks;
}
