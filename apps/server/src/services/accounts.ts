import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { users } from '../db/schema';
import { hashPassword } from './passwords';

/** What a super account made here is; its e-mail and password hash come from the caller. */
const NEW_SUPER = { firstName: 'Site', lastName: 'Administrator', role: 'super', active: true } as const;

/**
 * Inserts a super account unless one with this (normalised) e-mail exists; its id, or null when it existed. Several
 * processes may start at once with the same INITIAL_SUPER_EMAIL (two servers and a worker): the first insert wins
 * and the others find it made, where a check followed by an insert let the second one fail on the unique e-mail.
 */
async function insertSuper(db: Db, email: string, passwordHash: string): Promise<string | null> {
  const [row] = await db
    .insert(users)
    .values({ email, passwordHash, ...NEW_SUPER })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id });
  return row?.id ?? null;
}

/** The account with this e-mail (already normalised), if any. */
export const findAccount = async (db: Db, email: string): Promise<{ id: string } | undefined> =>
  (await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1))[0];

/** Creates an active super account, or promotes and re-passwords an existing one (CLI and first start). */
export async function upsertSuper(db: Db, email: string, password: string): Promise<{ id: string; created: boolean }> {
  const normalised = email.trim().toLowerCase();
  const passwordHash = await hashPassword(password);
  const existing = await findAccount(db, normalised);
  if (!existing) {
    const id = await insertSuper(db, normalised, passwordHash);
    if (id) return { id, created: true };
  }
  // It existed, or another process made it in between: promote it and give it this password.
  const { id } = existing ?? (await findAccount(db, normalised))!;
  await db
    .update(users)
    .set({ role: 'super', active: true, passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
    .where(eq(users.id, id));
  return { id, created: false };
}

/** Creates the super account of INITIAL_SUPER_EMAIL at start when no account has that e-mail; true when created. */
export async function ensureInitialSuper(db: Db, email: string, password: string): Promise<boolean> {
  const normalised = email.trim().toLowerCase();
  if (await findAccount(db, normalised)) return false;
  return (await insertSuper(db, normalised, await hashPassword(password))) !== null;
}
