import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { TimestampTrust } from '../../services/timestamping';
import { CaptureSigner } from './signing';
import { verifyWacz } from './verify-wacz';

/**
 * `verify-capture <file.wacz> [--key <pem file or URL>] [--tsa-ca <pem bundle>]`: checks a downloaded capture offline
 * (verify-wacz.ts). The key it is checked against: the one given; else this site's own (its data folder's key, or the
 * one published at PUBLIC_URL/.well-known/capture-key); else none, which is said.
 */

async function readKey(source: string): Promise<string> {
  if (/^https?:\/\//.test(source)) {
    const res = await fetch(source, { signal: AbortSignal.timeout(15_000) });
    if (!res.ok) throw new Error(`${source} answered ${res.status}`);
    return res.text();
  }
  return readFileSync(source, 'utf8');
}

async function siteKey(print: (line: string) => void): Promise<string | null> {
  // Read from the environment, not the site's configuration: on a reader's machine there is none to load.
  const dataDir = process.env.DATA_DIR ?? './data';
  const publicUrl = process.env.PUBLIC_URL ?? null;
  const file = path.join(path.resolve(dataDir), 'capture-signing-key.pem');
  if (existsSync(file)) {
    print(`Key: this site's capture key (${file}).`);
    return CaptureSigner.fromPem(readFileSync(file, 'utf8')).publicKeyPem;
  }
  if (publicUrl) {
    const url = `${publicUrl.replace(/\/+$/, '')}/.well-known/capture-key`;
    print(`Key: the one published at ${url}.`);
    return readKey(url);
  }
  return null;
}

export async function verifyCapture(args: string[], print: (line: string) => void = console.log): Promise<number> {
  const valueOf = (flag: string) => (args.includes(flag) ? (args[args.indexOf(flag) + 1] ?? '') : null);
  const file = args.find((a, i) => !a.startsWith('--') && !['--key', '--tsa-ca'].includes(args[i - 1] ?? ''));
  const key = valueOf('--key');
  const ca = valueOf('--tsa-ca');
  if (!file || key === '' || ca === '') {
    print('verify-capture: usage: verify-capture <file.wacz> [--key <pem file or URL>] [--tsa-ca <pem bundle of trusted time-stamping authorities>]');
    return 2;
  }
  let bytes: Buffer;
  let publicKey: string | null;
  let trust = TimestampTrust.unchecked;
  try {
    bytes = readFileSync(file);
    if (key) print(`Key: ${key}.`);
    publicKey = key ? await readKey(key) : await siteKey(print);
    if (ca) trust = TimestampTrust.fromPem(readFileSync(ca, 'utf8'));
  } catch (err) {
    print(`verify-capture: ${(err as Error).message}`);
    return 2;
  }
  const report = await verifyWacz(bytes, { publicKey, tsaTrust: trust });
  for (const check of report.checks) print(`${check.ok ? 'OK  ' : 'FAIL'} ${check.what}`);
  print(report.ok ? `${file}: every check holds.` : `${file}: does NOT verify (${report.checks.filter((c) => !c.ok).length} checks failed).`);
  return report.ok ? 0 : 1;
}

export const verifyCaptureCommand = {
  usage: 'verify-capture <file.wacz> [--key <pem|url>] [--tsa-ca <pem>]   check a downloaded capture offline: WARC digests, files, signature, time-stamp',
  offline: true as const,
  run: (args: string[]) => verifyCapture(args),
};
