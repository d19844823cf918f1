import { createHash } from 'node:crypto';
import { WARCParser } from 'warcio';
import { forEachZipEntry } from '../../services/zip-reading';
import { TimestampTrust, verifyTimestamp } from '../../services/timestamping';
import { publicKeyFingerprint, signatureHolds, TIMESTAMP_REQUESTED } from './signing';

/**
 * The offline check of a capture's WACZ, apart from the code that wrote it: every WARC record's digests against its
 * bytes (read with warcio's parser), datapackage.json against the files, datapackage-digest.json against
 * datapackage.json, its signature against the site's published key, and its RFC 3161 time-stamp. Each check says
 * what holds and what does not; one that fails makes the whole fail.
 */

export interface WaczCheck {
  ok: boolean;
  what: string;
}

export interface WaczReport {
  ok: boolean;
  checks: WaczCheck[];
}

const sha256 = (b: Uint8Array) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** The files of a ZIP (WACZ) by path. */
export async function readZip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  await forEachZipEntry(bytes, async (entry, stream) => {
    files.set(entry.fileName, Buffer.concat(await stream.toArray()));
  });
  return files;
}

/** Each record's block digest (parsed without HTTP) and payload digest (parsed with it) against its bytes. */
async function checkWarc(name: string, bytes: Buffer): Promise<WaczCheck[]> {
  const checks: WaczCheck[] = [];
  let records = 0;
  let bad = 0;
  try {
    const blocks: (string | null)[] = [];
    for await (const record of new WARCParser([new Uint8Array(bytes)], { parseHttp: false })) {
      const block = await record.readFully(false);
      const expected = record.warcBlockDigest;
      blocks.push(expected ? (sha256(block) === expected ? null : `${record.warcType} ${record.warcTargetURI ?? ''}: its block digest does not match its bytes`) : null);
    }
    let i = 0;
    for await (const record of new WARCParser([new Uint8Array(bytes)], { parseHttp: true })) {
      records++;
      const problems = [blocks[i++]];
      const payloadDigest = record.warcPayloadDigest;
      if (record.warcType === 'response' || record.warcType === 'resource') {
        const payload = await record.readFully(false);
        if (!payloadDigest) problems.push(`${record.warcType} ${record.warcTargetURI ?? ''}: no WARC-Payload-Digest`);
        else if (sha256(payload) !== payloadDigest) problems.push(`${record.warcType} ${record.warcTargetURI ?? ''}: its payload digest does not match its payload`);
      }
      for (const p of problems.filter((x): x is string => !!x)) {
        bad++;
        checks.push({ ok: false, what: `${name}: ${p}` });
      }
    }
  } catch (err) {
    return [...checks, { ok: false, what: `${name}: cannot be read as WARC after record ${records} (${(err as Error).message.split('\n')[0]})` }];
  }
  if (!records) return [{ ok: false, what: `${name}: holds no WARC record` }];
  if (!bad) checks.push({ ok: true, what: `${name}: all ${records} WARC records match their digests (SHA-256)` });
  return checks;
}

export interface VerifyOptions {
  /** The site's published public key (PEM, or SPKI base64); null: the file's own key is used, and that is said. */
  publicKey: string | null;
  tsaTrust?: TimestampTrust;
}

export async function verifyWacz(bytes: Buffer, options: VerifyOptions): Promise<WaczReport> {
  const checks: WaczCheck[] = [];
  const done = () => ({ ok: checks.length > 0 && checks.every((c) => c.ok), checks });
  let files: Map<string, Buffer>;
  try {
    files = await readZip(bytes);
  } catch (err) {
    checks.push({ ok: false, what: `the file cannot be read as a WACZ (ZIP): ${(err as Error).message}` });
    return done();
  }
  for (const [name, content] of files) {
    if (/^archive\/.*\.warc(\.gz)?$/.test(name)) checks.push(...(await checkWarc(name, content)));
  }
  const datapackage = files.get('datapackage.json');
  const digestFile = files.get('datapackage-digest.json');
  if (!datapackage || !digestFile) {
    checks.push({ ok: false, what: 'datapackage.json or datapackage-digest.json is missing' });
    return done();
  }
  checks.push(...checkDatapackage(files, datapackage));

  let digest: { hash?: string; signedData?: Record<string, string | undefined> };
  try {
    digest = JSON.parse(digestFile.toString()) as typeof digest;
  } catch {
    checks.push({ ok: false, what: 'datapackage-digest.json is not valid JSON' });
    return done();
  }
  const datapackageHash = sha256(datapackage);
  checks.push(
    digest.hash === datapackageHash
      ? { ok: true, what: `datapackage-digest.json names datapackage.json's hash (${datapackageHash})` }
      : { ok: false, what: "datapackage-digest.json's hash is not datapackage.json's: datapackage.json was changed" },
  );
  checks.push(...(await checkSignature(digest, datapackage, datapackageHash, options)));
  return done();
}

/** datapackage.json against the files: each listed file there with its SHA-256 and size, and no file unlisted. */
function checkDatapackage(files: Map<string, Buffer>, datapackage: Buffer): WaczCheck[] {
  const checks: WaczCheck[] = [];
  let resources: { path: string; hash: string; bytes: number }[] = [];
  try {
    resources = (JSON.parse(datapackage.toString()) as { resources: typeof resources }).resources;
  } catch {
    checks.push({ ok: false, what: 'datapackage.json is not valid JSON' });
  }
  const listed = new Set<string>();
  let filesOk = resources.length > 0;
  for (const r of resources) {
    listed.add(r.path);
    const content = files.get(r.path);
    if (!content) {
      filesOk = false;
      checks.push({ ok: false, what: `datapackage.json lists ${r.path}, which is not in the file` });
    } else if (sha256(content) !== r.hash || content.length !== r.bytes) {
      filesOk = false;
      checks.push({ ok: false, what: `${r.path}: its SHA-256 or size is not the one datapackage.json states` });
    }
  }
  for (const name of files.keys()) {
    if (name !== 'datapackage.json' && name !== 'datapackage-digest.json' && !listed.has(name)) {
      filesOk = false;
      checks.push({ ok: false, what: `${name} is in the file but not in datapackage.json` });
    }
  }
  if (filesOk) checks.push({ ok: true, what: `datapackage.json: all ${resources.length} files match their SHA-256 and size` });
  return checks;
}

/** The signature of datapackage.json's hash, its key against the published one, and its RFC 3161 time-stamp. */
async function checkSignature(
  digest: { hash?: string; signedData?: Record<string, string | undefined> },
  datapackage: Buffer,
  datapackageHash: string,
  options: VerifyOptions,
): Promise<WaczCheck[]> {
  const checks: WaczCheck[] = [];
  const signed = digest.signedData;
  if (!signed?.signature || !signed.publicKey || !signed.hash) {
    checks.push({ ok: false, what: 'datapackage-digest.json carries no signature' });
    return checks;
  }
  const holds = signed.hash === digest.hash && signed.hash === datapackageHash && signatureHolds(signed.hash, signed.signature, signed.publicKey);
  checks.push(holds ? { ok: true, what: `the signature of that hash verifies (created ${signed.created ?? '?'}, ${signed.software ?? 'unknown software'})` } : { ok: false, what: 'the signature does not verify' });
  const fileKey = publicKeyFingerprint(signed.publicKey);
  if (options.publicKey === null) {
    checks.push({ ok: true, what: `no published key given: the signature was checked with the key the file carries (SHA-256 ${fileKey}), which proves only that the file agrees with itself` });
  } else {
    const expected = publicKeyFingerprint(options.publicKey);
    checks.push(
      expected && expected === fileKey
        ? { ok: true, what: `the signing key is the site's published key (SHA-256 ${expected})` }
        : { ok: false, what: `the signing key (SHA-256 ${fileKey}) is not the published key given (SHA-256 ${expected ?? 'unreadable'})` },
    );
  }
  if (signed.timestampToken) {
    try {
      const ts = await verifyTimestamp(Buffer.from(signed.timestampToken, 'base64'), datapackage, options.tsaTrust ?? TimestampTrust.unchecked);
      checks.push({
        ok: true,
        what: `the RFC 3161 time-stamp of that hash verifies: ${ts.time.toISOString()}, by ${ts.authority}${ts.chain === 'trusted' ? ', a trusted authority' : " (the authority's certificate chain was not checked: give trusted authorities with --tsa-ca)"}`,
      });
    } catch (err) {
      checks.push({ ok: false, what: `the time-stamp does not verify: ${(err as Error).message}` });
    }
  } else if (timestampRequested(datapackage)) {
    checks.push({ ok: false, what: 'no RFC 3161 time-stamp, but the signed datapackage.json says the capture was time-stamped: its token was taken out' });
  } else {
    checks.push({ ok: true, what: 'no RFC 3161 time-stamp (the site had no TSA_URL, or the authority failed): the time is the site\'s own word' });
  }
  return checks;
}

/** Whether datapackage.json says its package was time-stamped; files made before that mark existed say nothing. */
function timestampRequested(datapackage: Buffer): boolean {
  try {
    const extras = (JSON.parse(datapackage.toString()) as { extras?: Record<string, unknown> }).extras;
    return extras?.[TIMESTAMP_REQUESTED] === true;
  } catch {
    return false;
  }
}
