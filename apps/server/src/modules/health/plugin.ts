import type { FastifyPluginAsync } from 'fastify';

/** GET /health: 200 when the database answers, 503 otherwise. */
const health: FastifyPluginAsync = async (app) => {
  app.get('/health', async (_request, reply) => {
    try {
      await app.database.query('select 1');
      return { status: 'ok', database: { status: 'ok', driver: app.database.driver } };
    } catch (err) {
      app.log.error({ err }, 'health check: database unreachable');
      return reply.status(503).send({ status: 'error', database: { status: 'unreachable', driver: app.database.driver } });
    }
  });
};

export default health;
