import type { FastifyPluginAsync } from 'fastify';
import { API_BASE, can, searchFiltersSchema, type SearchFilters } from '@app/shared';
import { PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL } from '../cache/response-cache';
import { inSearchTurn } from '../collection/limiter';
import { computeStatistics } from './queries';

/** GET /statistics: counts of the records matching the filters of the collection, for /statistics and /map. */
const statisticsArea: FastifyPluginAsync = async (app) => {
  app.get(
    `${API_BASE}/statistics`,
    {
      schema: {
        tags: ['statistics'],
        summary: 'Counts of the records matching the filters: per category, people killed, per month, per region, per perpetrator',
        description:
          'Takes the filters of GET /search (repeat a parameter for several values). Anonymous readers count live public ' +
          'records only; signed-in readers also count non-public ones. Trashed records are never counted. ' +
          'Regions list every region code, then "unknown" (not recorded).',
        querystring: searchFiltersSchema,
      },
    },
    async (request, reply) => {
      const filters = request.query as SearchFilters;
      const count = async (includePrivate: boolean) => (await computeStatistics(app.db, filters, { includePrivate })).statistics;
      // With words the records themselves are counted, as a search counts them: in a search's turn.
      const produce = (includePrivate: boolean) => (filters.q ? inSearchTurn(app.config, () => count(includePrivate)) : count(includePrivate));
      if (!request.hasAuthHeader) {
        return app.publicCache.serve(
          request,
          reply,
          async () => ({
            status: 200,
            headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': PUBLIC_CACHE_CONTROL },
            body: JSON.stringify(await produce(false)),
          }),
          // The validated filters, repeated values sorted: one entry per filter set however its address spells it.
          { query: filters },
        );
      }
      const actor = await request.getActor();
      reply.header('cache-control', PRIVATE_CACHE_CONTROL);
      return produce(can.readPrivate(actor));
    },
  );
};

export default statisticsArea;
