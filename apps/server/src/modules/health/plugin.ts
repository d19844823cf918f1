import type { FastifyPluginAsync } from 'fastify';

/**
 * GET /health: 200 when the database answers, 503 otherwise. A connection that brings other processes' cache changes
 * being down makes it `degraded` (named in `cacheListeners`), still 200: the process lives and reconnects by itself.
 */
const health: FastifyPluginAsync = async (app) => {
  app.get('/health', async (_request, reply) => {
    try {
      await app.database.query('select 1');
      const { postgres, redis } = app.publicCache.listeners();
      const state = (up: boolean | null) => (up === null ? 'not configured' : up ? 'ok' : 'reconnecting');
      const cacheListeners = { postgres: state(postgres), redis: state(redis) };
      const degraded = postgres === false || redis === false;
      return { status: degraded ? 'degraded' : 'ok', database: { status: 'ok', driver: app.database.driver }, cacheListeners };
    } catch (err) {
      app.log.error({ err }, 'health check: database unreachable');
      return reply.status(503).send({ status: 'error', database: { status: 'unreachable', driver: app.database.driver } });
    }
  });
};

export default health;
