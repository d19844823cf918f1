import { TimestampTrust } from '../../services/timestamping';
import { verifyWacz } from '../captures/verify-wacz';
import { PAYLOAD } from './layout';
import { parseManifest, readBag, type BagFile } from './read-bag';
import { checkCustody, type Check } from './verify-custody';

/**
 * verify-package: an evidence package checked offline, with no site and no database. The bag (RFC 8493: bagit.txt,
 * every payload file against manifest-sha256.txt and none unlisted, the tag files against tagmanifest-sha256.txt,
 * Payload-Oxum), every original against the SHA-256 recorded at its upload, every capture's files against the hashes
 * recorded at capture and its WACZ (verify-wacz.ts: WARC digests, signature, time-stamp), and the custody
 * (verify-custody.ts). Each check is printed; one that fails makes the whole fail.
 */

export interface PackageVerifyOptions {
  publicKeyPem: string | null;
  capturePublicKeyPem: string | null;
  tsaTrust?: TimestampTrust;
}

const text = (files: Map<string, BagFile>, path: string) => files.get(path)?.bytes?.toString('utf8') ?? null;

function checkManifests(files: Map<string, BagFile>): Check[] {
  const checks: Check[] = [];
  const bagit = text(files, 'bagit.txt');
  checks.push(bagit && /^BagIt-Version: 1\.0\r?\nTag-File-Character-Encoding: UTF-8\r?\n?$/.test(bagit) ? { ok: true, what: 'bagit.txt: BagIt 1.0, UTF-8' } : { ok: false, what: 'bagit.txt: missing or not BagIt 1.0' });
  const manifest = parseManifest(text(files, 'manifest-sha256.txt') ?? '');
  if (!manifest.entries.size) checks.push({ ok: false, what: 'manifest-sha256.txt: missing or empty' });
  let bad = 0;
  for (const [path, sha256] of manifest.entries) {
    const file = files.get(path);
    if (!file) checks.push({ ok: false, what: `payload: ${path} is in the manifest but not in the package (removed)` });
    else if (file.sha256 !== sha256) checks.push({ ok: false, what: `payload: ${path} does not match its SHA-256 in the manifest (changed)` });
    else continue;
    bad++;
  }
  for (const path of files.keys()) {
    if (path.startsWith('data/') && !manifest.entries.has(path)) {
      bad++;
      checks.push({ ok: false, what: `payload: ${path} is not in the manifest (added)` });
    }
  }
  if (!bad && manifest.entries.size) checks.push({ ok: true, what: `payload: all ${manifest.entries.size} files match manifest-sha256.txt, none missing, none added` });
  const tags = parseManifest(text(files, 'tagmanifest-sha256.txt') ?? '');
  const tagsBad = [...tags.entries].filter(([path, sha256]) => files.get(path)?.sha256 !== sha256).map(([path]) => path);
  const tagsMissing = ['bagit.txt', 'bag-info.txt', 'manifest-sha256.txt'].filter((p) => !tags.entries.has(p));
  checks.push(
    tags.entries.size && !tagsBad.length && !tagsMissing.length
      ? { ok: true, what: `tag files: ${tags.entries.size} match tagmanifest-sha256.txt` }
      : { ok: false, what: `tag files: ${[...tagsBad, ...tagsMissing].join(', ') || 'tagmanifest-sha256.txt missing'} do not match tagmanifest-sha256.txt` },
  );
  const oxum = /^Payload-Oxum:\s*(\d+)\.(\d+)\s*$/m.exec(text(files, 'bag-info.txt') ?? '');
  const payload = [...files].filter(([p]) => p.startsWith('data/'));
  const octets = payload.reduce((sum, [, f]) => sum + f.size, 0);
  checks.push(
    oxum && Number(oxum[1]) === octets && Number(oxum[2]) === payload.length
      ? { ok: true, what: `bag-info.txt: Payload-Oxum ${octets}.${payload.length} holds` }
      : { ok: false, what: `bag-info.txt: Payload-Oxum ${oxum ? `${oxum[1]}.${oxum[2]}` : 'missing'}, the payload is ${octets}.${payload.length}` },
  );
  return checks;
}

function checkOriginals(files: Map<string, BagFile>): Check[] {
  const listed = JSON.parse(text(files, `data/${PAYLOAD.originals}`) ?? '[]') as { file: string; sha256AtUpload: string; size: number }[];
  const checks = listed
    .map((o): Check | null => {
      const file = files.get(o.file);
      if (!file) return { ok: false, what: `original: ${o.file} is missing` };
      if (file.sha256 !== o.sha256AtUpload || file.size !== Number(o.size)) return { ok: false, what: `original: ${o.file} is not the file uploaded (SHA-256 ${file.sha256}, recorded at upload ${o.sha256AtUpload})` };
      return null;
    })
    .filter((c): c is Check => c !== null);
  return checks.length ? checks : [{ ok: true, what: `originals: all ${listed.length} are the files as uploaded (SHA-256 recorded at upload)` }];
}

async function checkCaptures(files: Map<string, BagFile>, options: PackageVerifyOptions): Promise<Check[]> {
  const checks: Check[] = [];
  const captureKey = options.capturePublicKeyPem ?? text(files, `data/${PAYLOAD.captureKey}`);
  if (!options.capturePublicKeyPem) checks.push({ ok: true, note: true, what: 'captures: no --capture-key given: WACZ signatures are checked against the key in the package' });
  for (const [path, file] of files) {
    const folder = /^data\/captures\/([^/]+)\/capture\.json$/.exec(path);
    if (!folder) continue;
    const row = JSON.parse(file.bytes?.toString('utf8') ?? '{}') as Record<string, unknown>;
    for (const [name, column] of [['screenshot.png', 'screenshot'], ['snapshot.mhtml', 'snapshot'], ['headers.json', 'headers'], ['capture.wacz', 'wacz'], ['certificates.pem', 'certificates']] as const) {
      const recorded = row[`${column}Sha256`];
      if (!recorded) continue;
      const stored = files.get(`data/captures/${folder[1]}/${name}`);
      if (!stored || stored.sha256 !== recorded) checks.push({ ok: false, what: `capture ${folder[1]}: ${name} is ${stored ? 'not the file captured' : 'missing'}` });
    }
    const wacz = files.get(`data/captures/${folder[1]}/capture.wacz`)?.bytes;
    if (!wacz) continue;
    const report = await verifyWacz(wacz, { publicKey: captureKey, tsaTrust: options.tsaTrust });
    for (const c of report.checks) checks.push({ ok: c.ok, what: `capture ${folder[1]}: ${c.what}` });
  }
  return checks;
}

export async function verifyPackage(file: string, options: PackageVerifyOptions): Promise<{ ok: boolean; checks: Check[] }> {
  let files: Map<string, BagFile>;
  try {
    files = await readBag(file);
  } catch (err) {
    return { ok: false, checks: [{ ok: false, what: `${file}: cannot be read as a ZIP (${(err as Error).message})` }] };
  }
  const checks = [...checkManifests(files)];
  try {
    checks.push(...checkOriginals(files), ...(await checkCaptures(files, options)));
  } catch (err) {
    checks.push({ ok: false, what: `originals or captures: cannot be read (${(err as Error).message})` });
  }
  checks.push(...(await checkCustody(files, { publicKeyPem: options.publicKeyPem, tsaTrust: options.tsaTrust ?? TimestampTrust.unchecked })));
  return { ok: checks.every((c) => c.ok), checks };
}
