import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { MANIFEST, SIGNATURE, filesUnder, parseManifest } from './files';
import { mirrorKeyFingerprint, mirrorSignatureHolds } from './key';

/**
 * Checks a mirror against a public key, with nothing but the folder and the key: the manifest's signature, then every
 * file it lists (present, same SHA-256), then that the folder holds no file it does not list. Any one failure fails.
 */

export interface MirrorCheck {
  ok: boolean;
  problems: string[];
  files: number;
}

async function fileHash(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function verifyMirror(root: string, publicKeyPem: string): Promise<MirrorCheck> {
  const problems: string[] = [];
  const manifestFile = path.join(root, MANIFEST);
  const signatureFile = path.join(root, SIGNATURE);
  if (!existsSync(manifestFile) || !existsSync(signatureFile)) {
    return { ok: false, problems: [`${MANIFEST} or ${SIGNATURE} is missing: this is no signed mirror`], files: 0 };
  }
  if (!mirrorKeyFingerprint(publicKeyPem)) return { ok: false, problems: ['the key given is no public key in PEM'], files: 0 };
  const manifest = readFileSync(manifestFile);
  if (!mirrorSignatureHolds(manifest, readFileSync(signatureFile, 'utf8'), publicKeyPem)) {
    problems.push(`the signature of ${MANIFEST} does not hold for this key`);
  }
  const entries = parseManifest(manifest.toString('utf8'));
  if (!entries) return { ok: false, problems: [...problems, `${MANIFEST} has a line that is not "<sha256>  <path>" inside the mirror`], files: 0 };
  for (const [file, expected] of entries) {
    const full = path.join(root, file);
    if (!existsSync(full) || !statSync(full).isFile()) problems.push(`missing: ${file}`);
    else if ((await fileHash(full)) !== expected) problems.push(`changed: ${file}`);
  }
  for (const file of filesUnder(root)) {
    if (file !== MANIFEST && file !== SIGNATURE && !entries.has(file)) problems.push(`not listed (added): ${file}`);
  }
  return { ok: problems.length === 0, problems, files: entries.size };
}
