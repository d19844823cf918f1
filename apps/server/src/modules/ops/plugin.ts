import { createHash, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import { createMetrics } from './metrics';
import { PASSING, readyCheck, type CheckResult } from './ready-check';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * What an operator watches: request ids (echoed in X-Request-Id and in every log line of the request), /ready (the
 * database, Redis when configured, and the file store answer: a load balancer sends traffic only then), and Prometheus
 * metrics at /metrics behind METRICS_TOKEN. /health stays the liveness check (modules/health).
 *
 * Registered right after the error handler, so its hooks see every route registered after it.
 */
export default fp(
  async (app) => {
    const metrics = createMetrics(app);

    // SIGTERM (a restart, an upgrade): the server stops listening, so new connections go to another process, but a
    // proxy's keep-alive connections may still bring requests. Each is served and its connection closed after the
    // answer, so the proxy opens its next one elsewhere; the process exits once every connection is done.
    let closing = false;
    app.addHook('preClose', (done) => {
      closing = true;
      done();
    });
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id);
      if (closing) reply.header('connection', 'close');
      done();
    });
    app.addHook('onResponse', (request, reply, done) => {
      // The route's pattern (`/api/v1.0.0/:category/:id`), never the raw URL: one series per route, not per record.
      const route = request.routeOptions.url ?? 'unmatched';
      metrics.observe(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });

    const check = readyCheck(app.log);

    app.get('/ready', async (_request, reply) => {
      const redis = app.redis;
      const [database, redisState, storage] = await Promise.all([
        check('database', () => app.database.query('select 1')),
        redis
          ? check('redis', async () => {
              // A client between reconnects would queue the PING until Redis is back: say "down" at once instead.
              if (redis.status !== 'ready') throw new Error(`redis connection is ${redis.status}`);
              await redis.ping();
            })
          : Promise.resolve<CheckResult>('not configured'),
        check('storage', () => app.media.checkStorage()),
      ]);
      // The connections that bring other processes' cache changes: while one is down, this process may serve what
      // another one changed, so a load balancer should send its traffic elsewhere until it holds again.
      const listeners = app.publicCache.listeners();
      const listening = (up: boolean | null): CheckResult => (up === null ? 'not configured' : up ? 'ok' : 'unreachable');
      // Mails waiting for a retry: the mail server failed. Reads and most writes still work, so the process keeps its
      // traffic (200) and says it is degraded; a database that cannot count them fails above already.
      const mailWaiting = database === 'ok' ? await app.mailQueue.waiting().catch(() => 0) : 0;
      const mail: CheckResult = mailWaiting ? 'failing' : 'ok';
      const checks = { database, redis: redisState, storage, cacheListener: listening(listeners.postgres), cacheSubscriber: listening(listeners.redis), mail };
      const failed = Object.entries(checks)
        .filter(([, state]) => !PASSING.includes(state))
        .map(([name]) => name);
      if (failed.length) return reply.status(503).send({ status: 'unavailable', failed, checks });
      if (mailWaiting) return { status: 'degraded', degraded: ['mail'], mailWaiting, checks };
      return { status: 'ok', checks };
    });

    const token = app.config.METRICS_TOKEN;
    app.get('/metrics', async (request, reply) => {
      // Without a token the endpoint does not exist: metrics name routes and volumes nobody outside should read.
      if (!token) return reply.status(404).send({ message: 'Not found' });
      const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
      if (!timingSafeEqual(digest(given), digest(token))) {
        return reply.status(401).header('www-authenticate', 'Bearer realm="metrics"').send({ message: 'A valid metrics token is required' });
      }
      const body = await metrics.registry.metrics();
      return reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store').send(body);
    });
  },
  { name: 'ops', dependencies: ['db'] },
);
