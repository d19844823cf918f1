import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageLimit, TOTAL_COUNT_HEADER } from '@app/shared';
import { refusals } from '../../errors';
import { changeRole, listUsers, readMe, toMe, toUserListItem } from './roles';
import { listQuery, meResponse, messageResponse, roleBody, userIdParams, userResponse } from './schemas';

const tags = ['users'];

/** Routes under /api/users for a signed-in account: sign-out, the account itself, and the super's list and role changes. */
export function registerAccountRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  /**
   * Sign-out. Tokens are stateless JWTs: the server keeps no session, so signing out means the client deletes its
   * token. This call exists for the spec's contract and always answers 200. A token stays valid until it expires
   * (JWT_TTL_HOURS) unless the account's token version is raised, which a password reset or a role change does:
   * then every token issued before stops working at once.
   */
  app.get('/signout', { schema: { tags, response: { 200: messageResponse, ...refusals(400) } } }, async () => ({ message: 'Signed out' }));

  app.get(
    '/me',
    { preHandler: app.requireActor, schema: { tags, response: { 200: meResponse, ...refusals(400, 401) } } },
    async (request) => toMe(await readMe(app.db, (await request.getActor())!)),
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
      preHandler: app.requireRole('super'),
      schema: { tags, params: userIdParams, body: roleBody, response: { 200: userResponse, ...refusals(400, 401, 403, 404, 413, 415) } },
    },
    async (request) => {
      const actor = (await request.getActor())!;
      return toUserListItem(await changeRole(app.db, app.audit, actor, request.params.id, request.body.role));
    },
  );
}
