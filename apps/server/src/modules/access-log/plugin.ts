import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_BASE, CATEGORY_LIST, accessLogEntrySchema, TOTAL_COUNT_HEADER, USERS_API_BASE, isUuid, offsetPageQuerySchema, pageLimit } from '@app/shared';
import { refusals } from '../../errors';
import { accessLogCsv, countAccessLog, listAccessLog, noteRecordRead } from './service';

const tags = ['access-log'];
/** The routes of one record's read, whose answers to an account are logged when they showed something private. */
const RECORD_READS = new Set(CATEGORY_LIST.map((c) => `${API_BASE}/${c.slug}/:id`));

/**
 * The access log (decisions.md §4): every read of a private record, or of a record whose withheld testimony it showed,
 * by an account. Admins read and export it; each account reads its own. Not encapsulated: its hook sees the records
 * area's reads.
 */
const accessLogArea: FastifyPluginAsync = fp(async (instance: FastifyInstance) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  // After the answer, from what the request resolved: only a reader the server answered as signed in is logged.
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode !== 200 || !request.actor || !RECORD_READS.has(request.routeOptions.url ?? '')) return;
    const id = (request.params as { id?: string }).id;
    if (!id || !isUuid(id)) return;
    await noteRecordRead(app.db, request.actor, id).catch((err: unknown) => request.log.error({ err }, 'access log entry not written'));
  });

  app.get(
    `${API_BASE}/access-log`,
    { preHandler: app.requireRole('admin', 'super'), schema: { tags, querystring: offsetPageQuerySchema, response: { 200: z.array(accessLogEntrySchema), ...refusals(400, 401, 403) } } },
    async (request, reply) => {
      reply.header(TOTAL_COUNT_HEADER, String(await countAccessLog(app.db)));
      return listAccessLog(app.db, { limit: pageLimit(request.query), offset: request.query.offset ?? 0 });
    },
  );

  app.get(
    `${API_BASE}/access-log/export.csv`,
    { preHandler: app.requireRole('admin', 'super'), schema: { tags, response: { 200: z.string(), ...refusals(400, 401, 403) } } },
    async (_request, reply) => {
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="access-log-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(await accessLogCsv(app.db));
    },
  );

  app.get(
    `${USERS_API_BASE}/access-log`,
    { preHandler: app.requireAccount, schema: { tags, querystring: offsetPageQuerySchema, response: { 200: z.array(accessLogEntrySchema), ...refusals(400, 401) } } },
    async (request) => {
      const me = (await request.getAccount())!;
      return listAccessLog(app.db, { userId: me.id, limit: pageLimit(request.query), offset: request.query.offset ?? 0 });
    },
  );
});

export default accessLogArea;
