import { z } from 'zod';
import type { FastifyPluginAsync } from 'fastify';
import { API_BASE, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, TOTAL_COUNT_HEADER } from '@app/shared';
import { PRIVATE_CACHE_CONTROL } from '../cache/response-cache';

const auditQuery = z.object({
  limit: z.coerce.number({ error: 'Must be a whole number' }).int({ error: 'Must be a whole number' }).min(1, { error: 'Must be at least 1' }).optional(),
  offset: z.coerce.number({ error: 'Must be a whole number' }).int({ error: 'Must be a whole number' }).min(0, { error: 'Must be zero or more' }).optional(),
  recordId: z.uuid({ error: 'Must be a record id' }).optional(),
  actorId: z.uuid({ error: 'Must be a user id' }).optional(),
});

/** The audit log for admins: entries newest first, and a check of the hash chain. */
const auditRoutes: FastifyPluginAsync = async (app) => {
  const staffOnly = app.requireRole('admin', 'super');

  app.get(
    `${API_BASE}/audit`,
    {
      preHandler: staffOnly,
      schema: {
        tags: ['audit'],
        summary: 'Audit log entries, newest first (admin, super)',
        description: `Filters recordId and actorId; JSON array; total in ${TOTAL_COUNT_HEADER}.`,
        querystring: auditQuery,
      },
    },
    async (request, reply) => {
      const query = request.query as z.infer<typeof auditQuery>;
      const limit = Math.min(query.limit ?? PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX);
      const { rows, total } = await app.audit.list({ limit, offset: query.offset ?? 0, recordId: query.recordId, actorId: query.actorId });
      reply.header(TOTAL_COUNT_HEADER, String(total)).header('cache-control', PRIVATE_CACHE_CONTROL);
      return rows.map((row) => ({ ...row, at: row.at.toISOString() }));
    },
  );

  app.get(
    `${API_BASE}/audit/verify`,
    { preHandler: staffOnly, schema: { tags: ['audit'], summary: 'Re-compute the hash chain (admin, super)' } },
    async (_request, reply) => {
      reply.header('cache-control', PRIVATE_CACHE_CONTROL);
      return app.audit.verify();
    },
  );
};

export default auditRoutes;
