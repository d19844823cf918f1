import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Database } from '../../db';
import type { AuditRow } from '../../db/schema';
import { GENESIS_HASH, entryHash } from '../../services/audit';
import { checkTimestamps, keyIdOf, verifyChain, type SignedCheckpoint } from '../../services/audit-checkpoints';
import { KEY_INTRODUCED } from '../../services/audit-keys';
import { TimestampTrust } from '../../services/timestamping';
import { chainLines, type ExportLine } from './chain-lines';

/**
 * `audit:export <file>` writes the whole chain and its checkpoints as JSON lines; `audit:verify <file>` checks such a
 * file offline, with no database and no site: every entry's hash and link, and every checkpoint's signature against
 * the public key given (the one published at /.well-known/audit-key, kept by whoever checks).
 */

async function exportChain(database: Database, file: string): Promise<{ entries: number; checkpoints: number }> {
  const out = createWriteStream(file, { flags: 'wx' });
  const counts = { entries: 0, checkpoints: 0 };
  for await (const text of chainLines(database, counts)) {
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return counts;
}

/** Reads an export: entries stream through the check; checkpoints are gathered first (they come last in the file). */
async function readCheckpoints(file: string): Promise<SignedCheckpoint[]> {
  const found: SignedCheckpoint[] = [];
  for await (const line of createInterface({ input: createReadStream(file) })) {
    if (!line.includes('"type":"checkpoint"')) continue;
    const c = JSON.parse(line) as ExportLine & { type: 'checkpoint' };
    found.push({ seq: c.seq, hash: c.hash, at: new Date(c.at), keyId: c.keyId, publicKey: c.publicKey, signature: c.signature, timestampToken: c.timestampToken });
  }
  return found;
}

async function* readEntries(file: string): AsyncGenerator<AuditRow> {
  for await (const line of createInterface({ input: createReadStream(file) })) {
    if (!line.trim()) continue;
    const parsed = JSON.parse(line) as ExportLine;
    if (parsed.type !== 'entry') continue;
    const { type: _type, ...entry } = parsed;
    yield { ...entry, at: new Date(entry.at) };
  }
}

/**
 * The given key, and the earlier keys of the site's key history (its `audit-key` entries) up to the newest checkpoint
 * the given key signed: that checkpoint pins every entry before it, those introductions included.
 */
async function keysPinnedBy(file: string, keyId: string, checkpoints: SignedCheckpoint[]): Promise<Set<string>> {
  const trusted = new Set([keyId]);
  const pinnedTo = Math.max(0, ...checkpoints.filter((c) => c.keyId === keyId).map((c) => c.seq));
  for await (const entry of readEntries(file)) {
    if (entry.seq > pinnedTo) break;
    if (entry.action === KEY_INTRODUCED && entry.subject) trusted.add(entry.subject);
  }
  return trusted;
}

export async function verifyExport(
  file: string,
  publicKeyPem: string | null,
  print: (line: string) => void = console.log,
  tsaTrust: TimestampTrust = TimestampTrust.unchecked,
): Promise<number> {
  const checkpoints = await readCheckpoints(file);
  const trusted = publicKeyPem ? await keysPinnedBy(file, keyIdOf(publicKeyPem), checkpoints) : new Set(checkpoints.map((c) => c.keyId));
  if (!publicKeyPem) print('No --public-key given: checkpoints are checked against the keys the file names, which proves only that the file agrees with itself.');
  const chain = await verifyChain(readEntries(file), entryHash, checkpoints, trusted, GENESIS_HASH);
  const report = chain.ok ? await checkTimestamps(chain, checkpoints, tsaTrust) : chain;
  if (report.ok) {
    if (report.timestampNote) print(`Note: ${report.timestampNote.replace('TSA_CA_FILE is not set', 'give them with --tsa-ca <pem file>')}.`);
    print(
      `The chain of ${report.entries} entries verifies, with ${report.checkpoints} signed checkpoints (the newest at entry ${report.newestCheckpointSeq ?? '-'}; ${report.timestamped ?? 0} time-stamped).`,
    );
    return 0;
  }
  print(`The chain does NOT verify at entry ${report.firstBrokenSeq}: ${report.reason}.`);
  return 1;
}

export const auditExportCommand = {
  usage: 'audit:export <file>                 write the audit chain and its signed checkpoints as JSON lines',
  async run(args: string[], database: Database) {
    const [file] = args;
    if (!file) {
      console.error('audit:export: name the file to write');
      return 2;
    }
    const { entries, checkpoints } = await exportChain(database, file);
    console.log(`Wrote ${entries} entries and ${checkpoints} checkpoints to ${file}`);
    return 0;
  },
};

export const auditVerifyCommand = {
  usage: 'audit:verify <file> [--public-key <pem>] [--tsa-ca <pem>]   check an exported chain offline (no database needed)',
  offline: true as const,
  async run(args: string[]) {
    const file = args.find((a, i) => !a.startsWith('--') && !['--public-key', '--tsa-ca'].includes(args[i - 1] ?? ''));
    const keyAt = args.indexOf('--public-key');
    const caAt = args.indexOf('--tsa-ca');
    if (!file || (keyAt >= 0 && !args[keyAt + 1]) || (caAt >= 0 && !args[caAt + 1])) {
      console.error('audit:verify: usage: audit:verify <file> [--public-key <pem file>] [--tsa-ca <pem bundle of trusted time-stamping authorities>]');
      return 2;
    }
    const trust = caAt >= 0 ? TimestampTrust.fromPem(readFileSync(args[caAt + 1]!, 'utf8')) : TimestampTrust.unchecked;
    return verifyExport(file, keyAt >= 0 ? readFileSync(args[keyAt + 1]!, 'utf8') : null, console.log, trust);
  },
};
