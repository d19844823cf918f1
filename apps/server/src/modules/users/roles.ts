import { and, asc, count, eq, sql } from 'drizzle-orm';
import { isUuid, type Actor, type Role } from '@app/shared';
import type { Db } from '../../db';
import { users, type UserRow } from '../../db/schema';
import { httpError } from '../../errors';
import type { AuditService } from '../../services/audit';

/** Accounts as staff see them: the signed-in account, the list of accounts, and role changes. */

const LAST_SUPER = 'The last super account cannot be demoted; make another account super first';

/** Serialises role changes so two supers cannot demote each other at the same moment and leave none. */
const ROLE_LOCK_KEY = 7_301_778;

/** The user fields any response may carry; the password hash is never among them. */
export function toMe(user: UserRow) {
  return { id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName, role: user.role as Role };
}

export function toUserListItem(user: UserRow) {
  return { ...toMe(user), active: user.active, createdAt: user.createdAt.toISOString() };
}

/** The signed-in account, read afresh (a 401 when it is gone). */
export async function readMe(db: Db, actor: Actor): Promise<UserRow> {
  const [user] = await db.select().from(users).where(eq(users.id, actor.id)).limit(1);
  if (!user) throw httpError.unauthorized();
  return user;
}

/** Every account, oldest first, a page at a time. */
export async function listUsers(db: Db, limit: number, offset: number): Promise<{ rows: UserRow[]; total: number }> {
  const [rows, [total]] = await Promise.all([
    db.select().from(users).orderBy(asc(users.createdAt), asc(users.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(users),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

/** Changes a role (super only), raising the token version and writing the audit log in the same transaction. */
export async function changeRole(db: Db, audit: Pick<AuditService, 'append'>, actor: Actor, userId: string, role: Role): Promise<UserRow> {
  if (!isUuid(userId)) throw httpError.notFound('No such user');
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ROLE_LOCK_KEY})`);
    const [target] = await tx.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!target) throw httpError.notFound('No such user');
    if (target.role === role) return target;
    // Only supers who can sign in count: an account never activated cannot manage anyone.
    if (target.role === 'super' && target.active) {
      const [supers] = await tx.select({ n: count() }).from(users).where(and(eq(users.role, 'super'), eq(users.active, true)));
      if (Number(supers?.n ?? 0) <= 1) throw httpError.badRequest({ role: LAST_SUPER });
    }
    const [updated] = await tx
      .update(users)
      .set({ role, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, userId))
      .returning();
    await audit.append(
      { actor, action: 'user.role', subject: `user:${userId}`, changes: { role: { before: target.role, after: role } } },
      tx,
    );
    return updated!;
  });
}
