import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import path from 'node:path';
import { fileMadeOnce } from '../../data-dir-file';

/**
 * The name under datapackage.json's `extras` that says the package was sent to a time-stamping authority: it lies in
 * what the signature covers (the token itself cannot: it is made over datapackage.json), so a token taken out of
 * datapackage-digest.json leaves a signed statement that one was there (verify-wacz.ts).
 */
export const TIMESTAMP_REQUESTED = 'timestampRequested';

/**
 * The key that signs captures' WACZ files, in the WACZ signing specification's anonymous-key form
 * (https://specs.webrecorder.net/wacz-auth/0.1.0/): ECDSA P-384 over the `hash` string of datapackage-digest.json,
 * the signature in IEEE P1363 form (what WebCrypto makes and ReplayWeb.page checks), the public key (SPKI, base64) in
 * the file. The audit key (/.well-known/audit-key) is Ed25519, which that specification and its readers do not take,
 * so this key is published beside it, at /.well-known/capture-key. Kept in DATA_DIR/capture-signing-key.pem, made on
 * first use, readable by the site's user only.
 */
export class CaptureSigner {
  readonly publicKeyPem: string;
  /** The public key as the WACZ signature carries it: SPKI DER, base64. */
  readonly publicKeyBase64: string;

  private constructor(private readonly privateKey: KeyObject) {
    const publicKey = createPublicKey(privateKey);
    this.publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString().trim();
    this.publicKeyBase64 = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  }

  static fromPem(pem: string): CaptureSigner {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'secp384r1') {
      throw new Error('the capture signing key must be an ECDSA P-384 private key in PEM');
    }
    return new CaptureSigner(key);
  }

  static forDataDir(dataDir: string): CaptureSigner {
    const pem = fileMadeOnce(path.join(dataDir, 'capture-signing-key.pem'), () =>
      generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    );
    return CaptureSigner.fromPem(pem);
  }

  /** The signature (base64) of a datapackage-digest.json `hash` string ("sha256:<hex>"). */
  sign(hash: string): string {
    return sign('sha256', Buffer.from(hash), { key: this.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64');
  }
}

/** Whether `signature` (base64, P1363) is the signature of `hash` by the public key `publicKey` (SPKI DER base64 or PEM). */
export function signatureHolds(hash: string, signature: string, publicKey: string): boolean {
  try {
    const key = publicKey.includes('-----BEGIN') ? createPublicKey(publicKey) : createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
    return verify('sha256', Buffer.from(hash), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/** SHA-256 (hex) of a public key's SPKI DER: the same for its PEM and base64 forms, so two keys compare. */
export function publicKeyFingerprint(publicKey: string): string | null {
  try {
    const key = publicKey.includes('-----BEGIN') ? createPublicKey(publicKey) : createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
    return createHash('sha256').update(key.export({ type: 'spki', format: 'der' })).digest('hex');
  } catch {
    return null;
  }
}
