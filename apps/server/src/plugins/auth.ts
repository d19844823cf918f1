import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor, Role } from '@app/shared';
import { preparedOnce } from '../db';
import { users } from '../db/schema';
import { httpError } from '../errors';
import { JwtService } from '../services/jwt';
import { AccountReads } from './account-reads';

declare module 'fastify' {
  interface FastifyInstance {
    jwt: JwtService;
    /** preHandler: 401 unless the request carries a valid token of an active account. */
    requireActor: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** preHandler factory: 401 without a token, 403 unless the actor has one of `roles`. */
    requireRole: (...roles: Role[]) => (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    /** The signed-in user, or null. Resolved lazily and once per request by `getActor`. */
    actor: Actor | null;
    getActor: () => Promise<Actor | null>;
    /** True when the request sent an Authorization header (cached public responses are skipped for it). */
    hasAuthHeader: boolean;
  }
}

/**
 * Resolves the bearer token to an actor. The account is read on each authenticated request so that a deactivated
 * account, a role change or a password reset (token version) takes effect at once (the requests of one event-loop
 * turn share the statement, account-reads.ts).
 */
export default fp(
  async (app) => {
    app.decorate('jwt', new JwtService(app.config.jwtSecret, app.config.JWT_TTL_HOURS * 3600));
    const accounts = new AccountReads((ids) =>
      preparedOnce(app.db, 'actors_of_tokens', () =>
        app.db
          .select({ id: users.id, role: users.role, active: users.active, tokenVersion: users.tokenVersion })
          .from(users)
          .where(sql`${users.id} = any(${sql.placeholder('ids')}::uuid[])`)
          .prepare('actors_of_tokens'),
      ).execute({ ids }),
    );
    app.decorateRequest('actor', null);
    app.decorateRequest('hasAuthHeader', false);
    app.decorateRequest('getActor', async function getActor(this: FastifyRequest) {
      const state = this as FastifyRequest & { actorResolved?: boolean };
      if (state.actorResolved) return this.actor;
      state.actorResolved = true;
      const header = this.headers.authorization;
      if (!header?.startsWith('Bearer ')) return null;
      const claims = await app.jwt.verify(header.slice(7).trim());
      if (!claims) return null;
      const user = await accounts.read(claims.id);
      if (!user || !user.active || user.tokenVersion !== claims.tv) return null;
      this.actor = { id: user.id, role: user.role as Role };
      return this.actor;
    });

    app.addHook('onRequest', async (request) => {
      request.hasAuthHeader = Boolean(request.headers.authorization);
    });

    app.decorate('requireActor', async (request: FastifyRequest) => {
      const actor = await request.getActor();
      if (!actor) throw httpError.unauthorized();
    });

    app.decorate('requireRole', (...roles: Role[]) => async (request: FastifyRequest) => {
      const actor = await request.getActor();
      if (!actor) throw httpError.unauthorized();
      if (!roles.includes(actor.role)) throw httpError.forbidden(`Only ${roles.join(' or ')} accounts can do this`);
    });
  },
  { name: 'auth', dependencies: ['db'] },
);
