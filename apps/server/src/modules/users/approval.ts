import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { isUuid, type Actor, type Role } from '@app/shared';
import type { Db } from '../../db';
import { users, type UserRow } from '../../db/schema';
import { httpError } from '../../errors';
import type { AuditService } from '../../services/audit';
import type { MailMessage } from '../../services/mail';
import { hashPassword } from '../../services/passwords';
import type { SessionService } from '../../services/sessions';
import { accountDecisionEmail, invitationEmail, type EmailContext } from './emails';
import { issueToken, TOKEN_LIFETIME_MS } from './one-time-tokens';

/** The accounts queue of admins (decisions.md §4): pending accounts approved or declined, and invitations. */

export interface ApprovalServices {
  db: Db;
  audit: Pick<AuditService, 'append'>;
  sessions: Pick<SessionService, 'revokeOthers'>;
  send: (message: MailMessage) => Promise<unknown>;
  emailContext: EmailContext;
}

/** An account as the queue shows it: what the person said at sign-up, and whether they activated it yet. */
export function toQueueItem(user: UserRow) {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role as Role,
    active: user.active,
    organisation: user.organisation,
    reason: user.reason,
    invited: user.invitedBy !== null,
    decidedAt: user.decidedAt?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
  };
}

/** Pending accounts, those that activated first (they are waiting), oldest first. */
export async function listPending(db: Db, limit: number, offset: number): Promise<{ rows: UserRow[]; total: number }> {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(eq(users.role, 'pending'))
      .orderBy(desc(users.active), asc(users.createdAt), asc(users.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(users).where(eq(users.role, 'pending')),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

async function decide(services: ApprovalServices, actor: Actor, userId: string, approved: boolean): Promise<UserRow> {
  if (!isUuid(userId)) throw httpError.notFound('No such user');
  const updated = await services.db.transaction(async (tx) => {
    const [target] = await tx.select().from(users).where(eq(users.id, userId)).for('update').limit(1);
    if (!target) throw httpError.notFound('No such user');
    if (target.role !== 'pending') throw httpError.conflict({ message: 'This account is not waiting for approval' });
    const [row] = await tx
      .update(users)
      .set({
        ...(approved ? { role: 'contributor' } : { active: false }),
        decidedAt: new Date(),
        decidedBy: actor.id,
        // The token names the role it was signed with: a new sign-in gives the approved account its new one.
        tokenVersion: sql`${users.tokenVersion} + 1`,
        updatedAt: new Date(),
      })
      .where(and(eq(users.id, userId), eq(users.role, 'pending')))
      .returning();
    await services.sessions.revokeOthers(userId, undefined, tx);
    await services.audit.append(
      {
        actor,
        action: approved ? 'user.approve' : 'user.decline',
        subject: `user:${userId}`,
        changes: approved ? { role: { before: 'pending', after: 'contributor' } } : { active: { before: target.active, after: false } },
      },
      tx,
    );
    return row!;
  });
  await services.send(accountDecisionEmail(services.emailContext, updated, approved));
  return updated;
}

export const approveAccount = (services: ApprovalServices, actor: Actor, userId: string) => decide(services, actor, userId, true);
export const declineAccount = (services: ApprovalServices, actor: Actor, userId: string) => decide(services, actor, userId, false);

/**
 * Invites a person by e-mail: the account is a contributor from the start (an admin vouched for it) and cannot sign in
 * until the e-mailed link has set its password, which activates it.
 */
export async function inviteAccount(
  services: ApprovalServices,
  actor: Actor,
  input: { email: string; firstName: string; lastName: string },
): Promise<UserRow> {
  const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
  const [user, token] = await services.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(users)
      .values({ ...input, passwordHash, role: 'contributor', active: false, invitedBy: actor.id })
      .onConflictDoNothing({ target: users.email })
      .returning();
    if (!created) throw httpError.conflict({ email: 'This e-mail already has an account' });
    await services.audit.append(
      { actor, action: 'user.invite', subject: `user:${created.id}`, changes: { role: { before: null, after: 'contributor' } } },
      tx,
    );
    return [created, await issueToken(tx, created.id, 'reset', new Date(), TOKEN_LIFETIME_MS.activation)] as const;
  });
  await services.send(invitationEmail(services.emailContext, user, token));
  return user;
}
