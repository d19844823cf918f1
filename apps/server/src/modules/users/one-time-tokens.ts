import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db';
import { tokens } from '../../db/schema';
import { httpError } from '../../errors';

/**
 * E-mailed single-use tokens (activation, password reset). The link carries 32 random bytes; the database keeps only
 * their SHA-256, so a leaked database or backup cannot be used to take over accounts.
 */
type TokenPurpose = 'activation' | 'reset';

export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  activation: 7 * 24 * 3600 * 1000,
  reset: 3600 * 1000,
};

const INVALID_MESSAGE: Record<TokenPurpose, string> = {
  activation: 'This activation link is not valid. Sign in to get a new one.',
  reset: 'This password reset link is not valid. Ask for a new one.',
};
const USED_MESSAGE: Record<TokenPurpose, string> = {
  activation: 'This activation link has already been used. Sign in to your account.',
  reset: 'This password reset link has already been used. Ask for a new one.',
};
const EXPIRED_MESSAGE: Record<TokenPurpose, string> = {
  activation: 'This activation link has expired. Sign in to get a new one.',
  reset: 'This password reset link has expired. Ask for a new one.',
};

type Executor = Pick<Db, 'select' | 'insert' | 'update'>;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Creates a token for `userId` and returns the raw value (for the link); only its hash is stored. */
export async function issueToken(
  db: Executor,
  userId: string,
  purpose: TokenPurpose,
  now = new Date(),
  /** An invitation's reset link lives as long as an activation link: the invitee may not read mail within the hour. */
  lifetimeMs = TOKEN_LIFETIME_MS[purpose],
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(tokens).values({
    userId,
    purpose,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + lifetimeMs),
  });
  return token;
}

/** The live token's row, or a 400 {message} saying whether it is unknown, used or expired. */
export async function findLiveToken(db: Executor, token: string, purpose: TokenPurpose) {
  const [row] = await db
    .select()
    .from(tokens)
    .where(and(eq(tokens.tokenHash, hashToken(token)), eq(tokens.purpose, purpose)))
    .limit(1);
  if (!row) throw httpError.badRequest({ message: INVALID_MESSAGE[purpose] });
  if (row.usedAt) throw httpError.badRequest({ message: USED_MESSAGE[purpose] });
  if (row.expiresAt.getTime() <= Date.now()) throw httpError.badRequest({ message: EXPIRED_MESSAGE[purpose] });
  return row;
}

/**
 * Marks the token used. The `used_at is null` condition makes this the one winner when two requests race with the
 * same link; the loser gets the "already used" answer.
 */
export async function markUsed(db: Executor, tokenId: string, purpose: TokenPurpose): Promise<void> {
  const claimed = await db
    .update(tokens)
    .set({ usedAt: new Date() })
    .where(and(eq(tokens.id, tokenId), isNull(tokens.usedAt)))
    .returning({ id: tokens.id });
  if (claimed.length === 0) throw httpError.badRequest({ message: USED_MESSAGE[purpose] });
}

/** Retires every outstanding token of `purpose` for the user (after a reset, older reset links stop working). */
export async function retireTokens(db: Executor, userId: string, purpose: TokenPurpose): Promise<void> {
  await db
    .update(tokens)
    .set({ usedAt: new Date() })
    .where(and(eq(tokens.userId, userId), eq(tokens.purpose, purpose), isNull(tokens.usedAt)));
}
