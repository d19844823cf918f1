import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/**
 * TOTP (RFC 6238: SHA-1, 6 digits, 30 s) and recovery codes. The secret is kept sealed (AES-256-GCM, its key derived
 * from the site's signing secret) so a database dump alone does not give anyone's codes; recovery codes are kept as
 * SHA-256 hashes only (each has 50 random bits, so a slow hash would add nothing).
 */

export const TOTP_PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
/** Recovery codes are written in this alphabet (no 0/O, 1/I/L) in two groups of five. */
const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export class TotpSealer {
  private readonly key: Buffer;

  constructor(siteSecret: string) {
    this.key = Buffer.from(hkdfSync('sha256', siteSecret, 'amhara-evidence', 'totp-secret-seal', 32));
  }

  seal(base32: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(base32, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }

  open(sealed: string): string {
    const [version, iv, body, tag] = sealed.split('.');
    if (version !== 'v1' || !iv || !body || !tag) throw new Error('unreadable TOTP secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}

const totpOf = (base32: string, issuer = '', label = '') =>
  new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(base32) });

/** A new secret (160 bits, as RFC 4226 recommends) and its otpauth:// URI. */
export function newTotp(issuer: string, label: string): { secret: string; otpauthUrl: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, otpauthUrl: totpOf(secret, issuer, label).toString() };
}

/** The QR code of an otpauth URI as an SVG document (drawn on the enrolment page). */
export function qrSvg(otpauthUrl: string): Promise<string> {
  return QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

/**
 * The time step `code` belongs to, within one step either side of `now`, when it is later than `lastStep` (a code is
 * never accepted twice, nor an older one after a newer); null otherwise.
 */
export function acceptedStep(base32: string, code: string, lastStep: number, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(base32).validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  const step = Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
  return step > lastStep ? step : null;
}

/** The code of `base32` at `now` (tests, and the enrolment page's own check). */
export const totpCode = (base32: string, now = Date.now()) => totpOf(base32).generate({ timestamp: now });

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A recovery code as typed (any case, with or without the dash or spaces) to its stored hash. */
export function recoveryCodeHash(code: string): string {
  return createHash('sha256').update(code.toUpperCase().replace(/[^A-Z0-9]/g, '')).digest('hex');
}

export const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
