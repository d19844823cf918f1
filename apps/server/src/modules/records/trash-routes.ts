import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_BASE, recordSchema, TOTAL_COUNT_HEADER } from '@app/shared';
import { refusals } from '../../errors';
import { requireRecentStepUp } from '../../plugins/step-up';
import { PRIVATE_CACHE_CONTROL } from '../cache/response-cache';
import { toRecordDtos } from './dto';
import { linkHeader, pageQuerySchema, resolvePage } from './paging';
import { listTrash } from './repository';
import { CHANGE_REFUSALS, idParams, requireId, type RecordRoutes } from './routes-context';
import { purgedSchema } from './schemas';

/** The trash: list (admin, super), restore (admin, super), purge (super). */
export function registerTrashRoutes(fastify: FastifyInstance, { writes, actorOf, recordResponse, staffOnly }: RecordRoutes): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    `${API_BASE}/trash`,
    {
      preHandler: staffOnly,
      schema: {
        tags: ['trash'],
        summary: 'Records in the trash, most recently deleted first (admin, super)',
        querystring: pageQuerySchema,
        response: { 200: z.array(recordSchema), ...refusals(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const page = resolvePage({ ...request.query, cursor: undefined })!;
      const { rows, total } = await listTrash(app.db, page);
      const link = linkHeader(`${API_BASE}/trash`, page, total, rows.length, null);
      reply.header(TOTAL_COUNT_HEADER, String(total)).header('cache-control', PRIVATE_CACHE_CONTROL);
      if (link) reply.header('link', link);
      // Staff only (who see who made what); its files are not served while in the trash: plain links.
      return toRecordDtos(rows, app.media, { withTrash: true, reader: await request.getActor(), plainLinks: true });
    },
  );
  app.put(
    `${API_BASE}/trash/:id/restore`,
    { preHandler: staffOnly, schema: { tags: ['trash'], summary: 'Restore a record from the trash (admin, super)', params: idParams, response: { 200: recordSchema, ...CHANGE_REFUSALS } } },
    async (request) => {
      const actor = await actorOf(request);
      const id = requireId(request.params.id);
      app.contentChanged({ area: 'records', category: await writes.restore(id, actor) });
      return recordResponse(id, actor);
    },
  );
  app.delete(
    `${API_BASE}/trash/:id`,
    {
      preHandler: [app.requireRole('super'), requireRecentStepUp],
      schema: {
        tags: ['trash'],
        summary: 'Purge a trashed record for good (super); its original files stay in storage',
        params: idParams,
        response: { 200: purgedSchema, ...CHANGE_REFUSALS },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      const id = requireId(request.params.id);
      app.contentChanged({ area: 'records', category: await writes.purge(id, actor) });
      return { _id: id, purged: true as const };
    },
  );
}
