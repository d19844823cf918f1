import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { users } from '../db/schema';
import { hashPassword } from './passwords';

/** Creates an active super account, or promotes and re-passwords an existing one (CLI and first start). */
export async function upsertSuper(db: Db, email: string, password: string): Promise<{ id: string; created: boolean }> {
  const normalised = email.trim().toLowerCase();
  const passwordHash = await hashPassword(password);
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, normalised)).limit(1);
  if (existing) {
    await db
      .update(users)
      .set({ role: 'super', active: true, passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, existing.id));
    return { id: existing.id, created: false };
  }
  const [row] = await db
    .insert(users)
    .values({ email: normalised, firstName: 'Site', lastName: 'Administrator', passwordHash, role: 'super', active: true })
    .returning({ id: users.id });
  return { id: row!.id, created: true };
}

/** Creates the super account of INITIAL_SUPER_EMAIL at start when no account has that e-mail; true when created. */
export async function ensureInitialSuper(db: Db, email: string, password: string): Promise<boolean> {
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  if (existing) return false;
  await upsertSuper(db, email, password);
  return true;
}
