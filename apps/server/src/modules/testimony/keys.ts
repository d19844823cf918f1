import { randomBytes } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db';
import { intakeKeyWraps, intakeKeys } from '../../db/schema';
import { httpError } from '../../errors';
import { newIntakeKeyPair, sodium, unwrapWithPassphrase, wrapWithPassphrase, type Wrap } from './crypto';

/** The intake key's ceremony: creating it, wrapping it for reviewers, the recovery key, and unlocking it. */

export const MIN_PASSPHRASE = 12;

export interface CurrentKey {
  id: string;
  publicKey: Buffer;
}

export async function currentIntakeKey(db: Db): Promise<CurrentKey | null> {
  const [row] = await db
    .select({ id: intakeKeys.id, publicKey: intakeKeys.publicKey })
    .from(intakeKeys)
    .where(eq(intakeKeys.current, true))
    .orderBy(desc(intakeKeys.createdAt))
    .limit(1);
  return row ?? null;
}

/** The recovery key as printed once: 32 random bytes in groups of base32-like hex, easy to copy onto paper. */
function formatRecovery(bytes: Buffer): string {
  return bytes.toString('hex').match(/.{1,8}/g)!.join('-');
}

export function parseRecovery(text: string): string {
  return text.replace(/[^0-9a-f]/gi, '').toLowerCase();
}

/**
 * Makes a new intake key (the current one from now on), wrapped for `userId` under `passphrase` and under a new
 * recovery key, which is returned to be shown once and never stored.
 */
export async function createIntakeKey(db: Db, userId: string | null, passphrase: string): Promise<{ keyId: string; recoveryKey: string }> {
  if (passphrase.length < MIN_PASSPHRASE) throw httpError.badRequest({ passphrase: `The passphrase must be at least ${MIN_PASSPHRASE} characters` });
  const { publicKey, privateKey } = await newIntakeKeyPair();
  const recovery = randomBytes(32);
  const recoveryKey = formatRecovery(recovery);
  const [own, recoveryWrap] = await Promise.all([
    userId ? wrapWithPassphrase(privateKey, passphrase) : null,
    // The recovery key is random, so Argon2id's cost buys nothing for it; the same wrap format keeps one unwrapping path.
    wrapWithPassphrase(privateKey, parseRecovery(recoveryKey), { opsLimit: 1, memLimit: 8 * 1024 * 1024 }),
  ]);
  (await sodium()).memzero(privateKey);
  const keyId = await db.transaction(async (tx) => {
    await tx.update(intakeKeys).set({ current: false }).where(eq(intakeKeys.current, true));
    const [key] = await tx.insert(intakeKeys).values({ publicKey }).returning({ id: intakeKeys.id });
    await tx.insert(intakeKeyWraps).values({ keyId: key!.id, userId: null, ...recoveryWrap });
    if (own) await tx.insert(intakeKeyWraps).values({ keyId: key!.id, userId, ...own });
    return key!.id;
  });
  return { keyId, recoveryKey };
}

async function wrapsOf(db: Db, userId: string | null): Promise<(Wrap & { keyId: string })[]> {
  return db
    .select({ keyId: intakeKeyWraps.keyId, salt: intakeKeyWraps.salt, opsLimit: intakeKeyWraps.opsLimit, memLimit: intakeKeyWraps.memLimit, wrapped: intakeKeyWraps.wrapped })
    .from(intakeKeyWraps)
    .where(userId ? eq(intakeKeyWraps.userId, userId) : isNull(intakeKeyWraps.userId));
}

/** Every intake private key this reviewer's passphrase opens, by key id (empty: wrong passphrase or no wrap). */
export async function unlockWithPassphrase(db: Db, userId: string, passphrase: string): Promise<Map<string, Uint8Array>> {
  const opened = new Map<string, Uint8Array>();
  for (const wrap of await wrapsOf(db, userId)) {
    const key = await unwrapWithPassphrase(wrap, passphrase);
    if (key) opened.set(wrap.keyId, key);
  }
  return opened;
}

export async function hasWrap(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: intakeKeyWraps.id }).from(intakeKeyWraps).where(eq(intakeKeyWraps.userId, userId)).limit(1);
  return Boolean(row);
}

/**
 * Wraps the keys unlocked in a session (or opened with the recovery key) for `userId` under their passphrase,
 * replacing the wraps that reviewer had: how a reviewer is added, and how one changes a passphrase.
 */
export async function wrapFor(db: Db, userId: string, keys: Map<string, Uint8Array>, passphrase: string): Promise<void> {
  if (passphrase.length < MIN_PASSPHRASE) throw httpError.badRequest({ passphrase: `The passphrase must be at least ${MIN_PASSPHRASE} characters` });
  const wraps = await Promise.all([...keys].map(async ([keyId, key]) => ({ keyId, userId, ...(await wrapWithPassphrase(key, passphrase)) })));
  await db.transaction(async (tx) => {
    for (const wrap of wraps) {
      await tx.delete(intakeKeyWraps).where(and(eq(intakeKeyWraps.userId, userId), eq(intakeKeyWraps.keyId, wrap.keyId)));
      await tx.insert(intakeKeyWraps).values(wrap);
    }
  });
}

export async function unlockWithRecovery(db: Db, recoveryKey: string): Promise<Map<string, Uint8Array>> {
  const opened = new Map<string, Uint8Array>();
  for (const wrap of await wrapsOf(db, null)) {
    const key = await unwrapWithPassphrase(wrap, parseRecovery(recoveryKey));
    if (key) opened.set(wrap.keyId, key);
  }
  return opened;
}

/** The public key of `keyId` (to open sealed boxes, libsodium needs both halves). */
export async function publicKeyOf(db: Db, keyId: string): Promise<Buffer | null> {
  const [row] = await db.select({ publicKey: intakeKeys.publicKey }).from(intakeKeys).where(eq(intakeKeys.id, keyId)).limit(1);
  return row?.publicKey ?? null;
}
