import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageLimit, TOTAL_COUNT_HEADER } from '@app/shared';
import { refusals } from '../../errors';
import { requireRecentStepUp } from '../../plugins/step-up';
import { registerApprovalRoutes } from './approval-routes';
import { registerSessionRoutes } from './session-routes';
import { changeRole, listUsers, readMe, toMe, toUserListItem } from './roles';
import { listQuery, meResponse, messageResponse, roleBody, userIdParams, userResponse } from './schemas';

const tags = ['users'];

/** Routes under /api/users for a signed-in account: sign-out, the account itself, and the super's list and role changes. */
export function registerAccountRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  registerApprovalRoutes(instance);
  registerSessionRoutes(instance);
  /**
   * Sign-out: ends the session of the token sent (its token answers 401 from then on, in every process). Always 200,
   * with or without a token, as the spec's contract says.
   */
  app.get('/signout', { schema: { tags, response: { 200: messageResponse, ...refusals(400) } } }, async (request) => {
    const me = await request.getAccount();
    if (me?.sid) await app.sessions.revoke(me.id, me.sid);
    return { message: 'Signed out' };
  });

  /** The account itself, a pending one too (the web app shows it the waiting screen). */
  app.get(
    '/me',
    { preHandler: app.requireAccount, schema: { tags, response: { 200: meResponse, ...refusals(400, 401) } } },
    async (request) => toMe(await readMe(app.db, (await request.getAccount())!)),
  );

  app.get(
    '/',
    {
      preHandler: app.requireRole('super'),
      schema: { tags, querystring: listQuery, response: { 200: z.array(userResponse), ...refusals(400, 401, 403) } },
    },
    async (request, reply) => {
      const { rows, total } = await listUsers(app.db, pageLimit(request.query), request.query.offset ?? 0);
      reply.header(TOTAL_COUNT_HEADER, String(total));
      return rows.map(toUserListItem);
    },
  );

  app.put(
    '/:id/role',
    {
      preHandler: [app.requireRole('super'), requireRecentStepUp],
      schema: { tags, params: userIdParams, body: roleBody, response: { 200: userResponse, ...refusals(400, 401, 403, 404, 413, 415) } },
    },
    async (request) => {
      const actor = (await request.getActor())!;
      return toUserListItem(await changeRole(app.db, app.audit, actor, request.params.id, request.body.role));
    },
  );
}
