import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageLimit, TOTAL_COUNT_HEADER } from '@app/shared';
import { refusals } from '../../errors';
import { approveAccount, declineAccount, inviteAccount, listPending, toQueueItem, type ApprovalServices } from './approval';
import { inviteBody, listQuery, queueItemResponse, userIdParams } from './schemas';

const tags = ['users'];

/** The admins' accounts queue under /api/users: pending accounts, approving or declining them, and invitations. */
export function registerApprovalRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const services = (): ApprovalServices => ({
    db: app.db,
    audit: app.audit,
    sessions: app.sessions,
    send: (message) => app.mailQueue.send(message),
    emailContext: { siteName: app.config.SITE_NAME, publicUrl: app.config.publicUrl },
  });
  const staff = app.requireRole('admin', 'super');

  app.get(
    '/pending',
    { preHandler: staff, schema: { tags, querystring: listQuery, response: { 200: z.array(queueItemResponse), ...refusals(400, 401, 403) } } },
    async (request, reply) => {
      const { rows, total } = await listPending(app.db, pageLimit(request.query), request.query.offset ?? 0);
      reply.header(TOTAL_COUNT_HEADER, String(total));
      return rows.map(toQueueItem);
    },
  );

  for (const [verb, decide] of [
    ['approve', approveAccount],
    ['decline', declineAccount],
  ] as const) {
    app.post(
      `/:id/${verb}`,
      { preHandler: staff, schema: { tags, params: userIdParams, response: { 200: queueItemResponse, ...refusals(400, 401, 403, 404, 409, 413, 415) } } },
      async (request) => toQueueItem(await decide(services(), (await request.getActor())!, request.params.id)),
    );
  }

  app.post(
    '/invite',
    { preHandler: staff, schema: { tags, body: inviteBody, response: { 201: queueItemResponse, ...refusals(400, 401, 403, 409, 413, 415) } } },
    async (request, reply) => reply.status(201).send(toQueueItem(await inviteAccount(services(), (await request.getActor())!, request.body))),
  );
}
