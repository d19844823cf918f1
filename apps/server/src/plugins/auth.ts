import fp from 'fastify-plugin';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isStaffRole, type Actor, type Role } from '@app/shared';
import { preparedOnce } from '../db';
import { sessions, users } from '../db/schema';
import { AppError, httpError } from '../errors';
import { JwtService } from '../services/jwt';
import { LAST_SEEN_EVERY_MS, SessionService } from '../services/sessions';
import { AccountReads } from './account-reads';

declare module 'fastify' {
  interface FastifyInstance {
    jwt: JwtService;
    sessions: SessionService;
    /** preHandler: 401 without a valid token, 403 (`pendingApproval`) for an account an admin has not approved. */
    requireActor: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** preHandler: 401 unless the request carries a valid token of an active account, pending ones included. */
    requireAccount: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** preHandler factory: 401 without a token, 403 unless the actor has one of `roles`. */
    requireRole: (...roles: Role[]) => (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    /** The signed-in, approved user, or null. Resolved lazily and once per request by `getActor`. */
    actor: Actor | null;
    /**
     * Who may read and write: the approved account of the token, or null. A pending account answers null here, so
     * every read and write that asks this (records, search, export, statistics, pages) treats it as anonymous.
     */
    getActor: () => Promise<Actor | null>;
    /** The signed-in account whatever its approval (its own account, sessions and factors), or null. */
    getAccount: () => Promise<SignedInAccount | null>;
    /** The account of the token once `getAccount` or `getActor` resolved it (with its session id `sid`), else null. */
    user: SignedInAccount | null;
    /** True when the request sent an Authorization header (cached public responses are skipped for it). */
    hasAuthHeader: boolean;
  }
}

export const PENDING_APPROVAL = "Your account is waiting for an administrator's approval";
export const ENROL_FIRST = 'Set up a second factor (an authenticator app or a passkey) before anything else: staff accounts must use one';

/** The signed-in account of a request: its session `sid`, whether that session may only enrol a second factor, and
 * when it last proved a factor or the password (step-up, step-up.ts). */
export type SignedInAccount = Actor & { sid: string; enrolOnly: boolean; verifiedAt: Date };

/** What decides whether a token still holds, read per request: its session and its account. */
interface SessionState {
  id: string;
  userId: string;
  revokedAt: Date | null;
  expiresAt: Date;
  lastSeenAt: Date;
  verifiedAt: Date;
  enrolOnly: boolean;
  role: string;
  active: boolean;
  tokenVersion: number;
}

/** Whether the session of a token (its claims `id`, `tv`) holds now; staff sessions also end when idle. */
export function sessionHolds(state: SessionState | undefined, claims: { id: string; tv: number }, idleMs: number, now = Date.now()): boolean {
  if (!state || state.userId !== claims.id || !state.active || state.tokenVersion !== claims.tv) return false;
  if (state.revokedAt || state.expiresAt.getTime() <= now) return false;
  return !(isStaffRole(state.role as Role) && now - state.lastSeenAt.getTime() > idleMs);
}

/** The sessions and accounts of tokens, one statement for the requests of one event-loop turn. */
function sessionReads(app: FastifyInstance): AccountReads<SessionState> {
  return new AccountReads<SessionState>((ids) =>
    preparedOnce(app.db, 'sessions_of_tokens', () =>
      app.db
        .select({
          id: sessions.id,
          userId: sessions.userId,
          revokedAt: sessions.revokedAt,
          expiresAt: sessions.expiresAt,
          lastSeenAt: sessions.lastSeenAt,
          verifiedAt: sessions.verifiedAt,
          enrolOnly: sessions.enrolOnly,
          role: users.role,
          active: users.active,
          tokenVersion: users.tokenVersion,
        })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(sql`${sessions.id} = any(${sql.placeholder('ids')}::uuid[])`)
        .prepare('sessions_of_tokens'),
    ).execute({ ids }),
  );
}

/**
 * Resolves the bearer token to an account. Its session and account are read on each authenticated request so that
 * an ended session, a deactivated account, a role change or a password reset takes effect at once, in every server
 * process (the requests of one event-loop turn share the statement, account-reads.ts).
 */
export default fp(
  async (app) => {
    app.decorate('jwt', new JwtService(app.config.jwtSecret, app.config.JWT_TTL_HOURS * 3600));
    app.decorate('sessions', new SessionService(app.db, app.jwt, app.config.JWT_TTL_HOURS * 3600_000));
    const idleMs = app.config.STAFF_IDLE_MINUTES * 60_000;
    const states = sessionReads(app);
    const touched = new Map<string, number>();
    const touch = (sid: string) => {
      const now = Date.now();
      if (now - (touched.get(sid) ?? 0) < LAST_SEEN_EVERY_MS) return;
      if (touched.size > 50_000) touched.clear();
      touched.set(sid, now);
      app.sessions.touch(sid).catch((err: unknown) => app.log.warn({ err }, 'session last-seen not written'));
    };

    app.decorateRequest('actor', null);
    app.decorateRequest('user', null);
    app.decorateRequest('hasAuthHeader', false);
    app.decorateRequest('getAccount', async function getAccount(this: FastifyRequest) {
      const state = this as FastifyRequest & { accountResolved?: Promise<SignedInAccount | null> };
      state.accountResolved ??= (async () => {
        const header = this.headers.authorization;
        if (!header?.startsWith('Bearer ')) return null;
        const claims = await app.jwt.verify(header.slice(7).trim());
        if (!claims?.sid) return null;
        const session = await states.read(claims.sid);
        if (!sessionHolds(session, claims, idleMs)) return null;
        touch(claims.sid);
        const { userId: id, role, enrolOnly, verifiedAt } = session!;
        this.user = { id, role: role as Role, sid: claims.sid, enrolOnly, verifiedAt };
        return this.user;
      })();
      return state.accountResolved;
    });
    app.decorateRequest('getActor', async function getActor(this: FastifyRequest) {
      const account = await this.getAccount();
      // A staff password sign-in not yet enrolled in a second factor may enrol and nothing else.
      if (account?.enrolOnly) throw new AppError(403, { message: ENROL_FIRST, code: 'twoFactorEnrolmentRequired' });
      this.actor = account && account.role !== 'pending' ? { id: account.id, role: account.role, sid: account.sid, verifiedAt: account.verifiedAt } : null;
      return this.actor;
    });

    app.addHook('onRequest', async (request) => {
      request.hasAuthHeader = Boolean(request.headers.authorization);
    });

    const refuseUnapproved = async (request: FastifyRequest) => {
      const account = await request.getAccount();
      if (!account) throw httpError.unauthorized();
      await request.getActor();
      if (account.role === 'pending') throw new AppError(403, { message: PENDING_APPROVAL, code: 'pendingApproval' });
      return account;
    };
    app.decorate('requireActor', async (request: FastifyRequest) => {
      await refuseUnapproved(request);
    });
    app.decorate('requireAccount', async (request: FastifyRequest) => {
      if (!(await request.getAccount())) throw httpError.unauthorized();
    });
    app.decorate('requireRole', (...roles: Role[]) => async (request: FastifyRequest) => {
      const actor = await refuseUnapproved(request);
      if (!roles.includes(actor.role)) throw httpError.forbidden(`Only ${roles.join(' or ')} accounts can do this`);
    });
  },
  { name: 'auth', dependencies: ['db'] },
);
