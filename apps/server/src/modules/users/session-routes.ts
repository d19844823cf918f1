import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isUuid } from '@app/shared';
import { httpError, refusals } from '../../errors';
import { browserName } from '../../services/sessions';
import { messageResponse, sessionResponse } from './schemas';

const tags = ['users'];

/** The signed-in account's sessions under /api/users: listing them, ending one, ending all but this one. */
export function registerSessionRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const account = app.requireAccount;

  app.get(
    '/sessions',
    { preHandler: account, schema: { tags, response: { 200: z.array(sessionResponse), ...refusals(400, 401) } } },
    async (request) => {
      const me = (await request.getAccount())!;
      return (await app.sessions.list(me.id)).map((row) => ({
        id: row.id,
        browser: browserName(row.userAgent),
        address: row.addressPrefix,
        createdAt: row.createdAt.toISOString(),
        lastSeenAt: row.lastSeenAt.toISOString(),
        current: row.id === me.sid,
      }));
    },
  );

  app.delete(
    '/sessions/:id',
    { preHandler: account, schema: { tags, params: z.object({ id: z.string() }), response: { 200: messageResponse, ...refusals(400, 401, 404, 413, 415) } } },
    async (request) => {
      const me = (await request.getAccount())!;
      if (!isUuid(request.params.id) || !(await app.sessions.revoke(me.id, request.params.id))) throw httpError.notFound('No such session');
      return { message: 'Session ended' };
    },
  );

  /** "Sign out everywhere": every session of the account but the one asking. */
  app.delete(
    '/sessions',
    { preHandler: account, schema: { tags, response: { 200: messageResponse.extend({ ended: z.number() }), ...refusals(400, 401, 413, 415) } } },
    async (request) => {
      const me = (await request.getAccount())!;
      const ended = await app.sessions.revokeOthers(me.id, me.sid);
      return { message: 'Every other session has ended', ended };
    },
  );
}
