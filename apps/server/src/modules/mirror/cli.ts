import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import type { Database } from '../../db';
import { MirrorSigner } from './key';
import { writeMirror } from './mirror';
import { verifyMirror } from './verify';

/** `mirror OUT` and `verify-mirror OUT --key KEY` (docs/mirror.md). */

/** A path as the operator typed it: relative to where `npm run admin` was started, not to apps/server. */
const given = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);

export async function runMirror(args: string[], database: Database, print: (line: string) => void = console.log): Promise<number> {
  const [out, ...extra] = args;
  if (!out || extra.length) {
    console.error('mirror: give the folder to write, e.g. mirror /srv/mirror');
    return 2;
  }
  const config = loadConfig();
  const started = performance.now();
  const app = await buildApp({ config, database, runJobs: false, logger: { level: 'warn' } });
  try {
    await app.ready();
    const report = await writeMirror(app, given(out), MirrorSigner.forDataDir(config.dataDir));
    print(
      `Mirror written to ${given(out)} in ${((performance.now() - started) / 1000).toFixed(1)} s: ${report.pages} pages, ${report.files} files ` +
        `(${report.written} written, ${report.unchanged} unchanged, ${report.removed} removed), ${report.indexed} records in the search index.`,
    );
    print(`Signed with the mirror key of fingerprint ${report.publicKeyFingerprint} (its public half: /.well-known/mirror-key).`);
    return 0;
  } finally {
    await app.close();
  }
}

async function readKey(source: string): Promise<string> {
  if (/^https?:\/\//.test(source)) {
    const res = await fetch(source, { signal: AbortSignal.timeout(15_000) });
    if (!res.ok) throw new Error(`${source} answered ${res.status}`);
    return res.text();
  }
  return readFileSync(given(source), 'utf8');
}

export async function runVerifyMirror(args: string[], print: (line: string) => void = console.log): Promise<number> {
  const keyAt = args.indexOf('--key');
  const key = keyAt >= 0 ? args[keyAt + 1] : undefined;
  const folder = args.find((a, i) => !a.startsWith('--') && i !== keyAt + 1);
  if (!folder || !key) {
    print('verify-mirror: usage: verify-mirror <folder> --key <public key PEM file, or the site\'s /.well-known/mirror-key URL>');
    return 2;
  }
  let pem: string;
  try {
    pem = await readKey(key);
  } catch (err) {
    print(`verify-mirror: cannot read the key: ${(err as Error).message}`);
    return 2;
  }
  const check = await verifyMirror(given(folder), pem);
  for (const problem of check.problems.slice(0, 50)) print(`FAIL ${problem}`);
  if (check.problems.length > 50) print(`... and ${check.problems.length - 50} more`);
  print(check.ok ? `${folder}: every one of its ${check.files} files and the signature hold.` : `${folder}: does NOT verify (${check.problems.length} problems).`);
  return check.ok ? 0 : 1;
}

export const mirrorCommand = {
  usage: 'mirror <folder>                   write the public site as a signed static mirror (again: only what changed)',
  run: (args: string[], database: Database) => runMirror(args, database),
};

export const verifyMirrorCommand = {
  usage: 'verify-mirror <folder> --key <pem|url>   check a mirror: every file\'s SHA-256 and the signature',
  offline: true as const,
  run: (args: string[]) => runVerifyMirror(args),
};
