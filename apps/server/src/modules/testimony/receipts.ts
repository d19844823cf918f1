import { createHmac, randomInt, scrypt as scryptCb, type BinaryLike, type ScryptOptions } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCb) as (password: BinaryLike, salt: BinaryLike, keylen: number, options: ScryptOptions) => Promise<Buffer>;

/**
 * Receipts: 16 random digits (about 53 bits), shown once. The server keeps a 12-bit bucket of a keyed HMAC of it (so a
 * receipt is checked against a handful of rows, not all) and the scrypt salt whose output opens the witness's key.
 * Neither tells the receipt: the bucket is shared by one receipt in 4096, and each guess costs one scrypt.
 */

export const BUCKET_BITS = 12;
/** scrypt N=2^15, r=8: 32 MiB and some 100 ms per guess. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

export function newReceipt(): string {
  let digits = '';
  for (let i = 0; i < 16; i++) digits += String(randomInt(10));
  return digits;
}

export function receiptBucket(lookupKey: Buffer, receipt: string): number {
  return createHmac('sha256', lookupKey).update(receipt).digest().readUInt16BE(0) >> (16 - BUCKET_BITS);
}

/** The 32-byte key the receipt derives with `salt`. */
export function receiptKey(receipt: string, salt: Buffer): Promise<Buffer> {
  return scrypt(receipt, salt, 32, SCRYPT);
}

/** 1234 5678 9012 3456: easier to copy by hand. */
export function formatReceipt(receipt: string): string {
  return receipt.replace(/(\d{4})(?=\d)/g, '$1 ');
}
