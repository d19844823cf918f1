import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import path from 'node:path';
import { fileMadeOnce } from '../../data-dir-file';

/**
 * The key that signs a static mirror's MIRROR.sha256: Ed25519 (node:crypto), kept in DATA_DIR/mirror-signing-key.pem,
 * made on first use and readable by the site's user only, as the capture key (captures/signing.ts). A key of its own,
 * not the capture or audit key: a mirror is signed by whoever runs the command on the server, and a reader checks it
 * against the PEM at /.well-known/mirror-key, so replacing one key never invalidates the others' signatures.
 */
export class MirrorSigner {
  readonly publicKeyPem: string;

  private constructor(private readonly privateKey: KeyObject) {
    this.publicKeyPem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString().trim();
  }

  static fromPem(pem: string): MirrorSigner {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'ed25519') throw new Error('the mirror signing key must be an Ed25519 private key in PEM');
    return new MirrorSigner(key);
  }

  static forDataDir(dataDir: string): MirrorSigner {
    const pem = fileMadeOnce(path.join(dataDir, 'mirror-signing-key.pem'), () =>
      generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    );
    return MirrorSigner.fromPem(pem);
  }

  /** The signature (base64) of the manifest's bytes. */
  sign(manifest: Buffer): string {
    return sign(null, manifest, this.privateKey).toString('base64');
  }
}

/** Whether `signature` (base64) is the Ed25519 signature of `manifest` by the public key in PEM. */
export function mirrorSignatureHolds(manifest: Buffer, signature: string, publicKeyPem: string): boolean {
  try {
    const key = createPublicKey(publicKeyPem);
    if (key.asymmetricKeyType !== 'ed25519') return false;
    return verify(null, manifest, key, Buffer.from(signature.trim(), 'base64'));
  } catch {
    return false;
  }
}

/** SHA-256 (hex) of a public key's SPKI DER, the fingerprint the known-mirrors page and docs/mirror.md show; null if it is no key. */
export function mirrorKeyFingerprint(publicKeyPem: string): string | null {
  try {
    return createHash('sha256').update(createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' })).digest('hex');
  } catch {
    return null;
  }
}
