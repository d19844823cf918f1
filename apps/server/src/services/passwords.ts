import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (password: string, salt: Buffer, keylen: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );

/**
 * OWASP Password Storage Cheat Sheet: scrypt with N=2^17, r=8, p=1. Tests use a cheaper cost (the parameters are
 * stored in each hash, so verification follows whatever a hash was made with).
 */
const COST_LOG2 = process.env.NODE_ENV === 'test' ? 12 : 17;
const BLOCK = 8;
const PARALLEL = 1;
const KEYLEN = 32;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const N = 2 ** COST_LOG2;
  const key = await scrypt(password, salt, KEYLEN, { N, r: BLOCK, p: PARALLEL, maxmem: 256 * N * BLOCK });
  return `scrypt$${COST_LOG2}$${BLOCK}$${PARALLEL}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, logN, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !logN || !r || !p || !salt || !key) return false;
  const N = 2 ** Number(logN);
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N,
    r: Number(r),
    p: Number(p),
    maxmem: 256 * N * Number(r),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
