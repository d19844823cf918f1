import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';

declare module 'fastify' {
  interface FastifyInstance {
    /** Shared Redis connection when REDIS_URL is set (rate limits, cache invalidation). */
    redis: Redis | null;
  }
}

/** Security headers, compression and rate limiting (limits are declared per route, with `config.rateLimit`). */
export default fp(
  async (app) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          mediaSrc: ["'self'", 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          frameAncestors: ["'none'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
      // Media and pages are shared on social networks, which fetch images cross-origin.
      crossOriginResourcePolicy: { policy: 'cross-origin' },
      hsts: app.config.NODE_ENV === 'production',
    });
    await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });

    const redis = app.config.REDIS_URL ? new Redis(app.config.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 2 }) : null;
    app.decorate('redis', redis);
    if (redis) app.addHook('onClose', async () => void (await redis.quit()));
    await app.register(rateLimit, {
      global: false,
      ...(redis ? { redis, nameSpace: 'rl:' } : {}),
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        message: `Too many attempts, try again in ${Math.ceil(context.ttl / 1000)} seconds`,
      }),
    });
  },
  { name: 'security', dependencies: ['db'] },
);
