import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { API_BASE, can, mapPointsResponseSchema, searchFiltersSchema, type SearchFilters } from '@app/shared';
import { refusals } from '../../errors';
import { PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL } from '../cache/response-cache';
import { inSearchTurn } from '../collection/limiter';
import { mapPoints } from './points';
import { computeStatistics } from './queries';

/**
 * GET /statistics (counts of the records matching the filters of the collection, for /statistics and /map) and GET
 * /statistics/points (the incidents with coordinates, for the map's points).
 */
const statisticsArea: FastifyPluginAsync = async (app) => {
  /**
   * Sends what `compute` makes of the request's filters for its reader: anonymous readers through the response cache
   * (one entry per filter set), computed without the non-public records; signed-in readers with what they may read,
   * never stored, so an editor's answer never reaches the anonymous cache. With words the records themselves are
   * read, as a search reads them: in a search's turn.
   */
  const serveFiltered = async (request: FastifyRequest, reply: FastifyReply, compute: (filters: SearchFilters, includePrivate: boolean) => Promise<unknown>) => {
    const filters = request.query as SearchFilters;
    const produce = (includePrivate: boolean) => (filters.q ? inSearchTurn(app.config, () => compute(filters, includePrivate)) : compute(filters, includePrivate));
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
  };

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
    (request, reply) => serveFiltered(request, reply, async (filters, includePrivate) => (await computeStatistics(app.db, filters, { includePrivate })).statistics),
  );

  app.get(
    `${API_BASE}/statistics/points`,
    {
      schema: {
        tags: ['statistics'],
        summary: 'The massacres and events with coordinates that match the filters, as points for the map',
        description:
          'Takes the filters of GET /search. Each point is rounded to the precision its editors chose (exact, town, ' +
          'woreda, zone, region), for every reader. Anonymous readers get live public records only; signed-in readers ' +
          'also non-public ones. Newest incident first, at most 500 points; `total` counts them all.',
        querystring: searchFiltersSchema,
        response: { 200: mapPointsResponseSchema, ...refusals(400) },
      },
    },
    (request, reply) => serveFiltered(request, reply, (filters, includePrivate) => mapPoints(app.db, filters, { includePrivate })),
  );
};

export default statisticsArea;
