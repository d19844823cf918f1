import { createServer } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db';
import authPlugin from './plugins/auth';
import errorsPlugin from './plugins/errors';
import inputGuardPlugin from './plugins/input-guard';
import securityPlugin from './plugins/security';
import servicesPlugin from './plugins/services';
import mediaPlugin from './modules/media/plugin';
import publicCachePlugin from './modules/cache/plugin';
import { ResponseCache } from './modules/cache/response-cache';
import { answerThroughNode } from './modules/cache/node-hits';
import { answerHitsOnSockets } from './modules/cache/socket-hits';
import healthRoutes from './modules/health/plugin';
import opsPlugin from './modules/ops/plugin';
import { requestIdFrom, requestIdOf } from './modules/ops/request-id';
import webPlugin from './modules/web/plugin';
import { areaPlugins } from './modules';
import { closePrivateFolders } from './private-folders';

interface BuildOptions {
  config: Config;
  database: Database;
  /** Run background jobs in this process (the default; tests drain the queue themselves). */
  runJobs?: boolean;
  /** Where the built web app is (tests pass a fixture). */
  webDistDir?: string;
  /** The web app's server renderer (tests give their own); apps/web/dist-ssr by default. */
  webSsrDir?: string;
  logger?: boolean | object;
}

/**
 * Builds the application without listening, so tests drive it with `app.inject`. Load order: shared services, then
 * ecosystem plugins, then the areas' routes.
 */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const publicResponses = new ResponseCache(config.CACHE_MAX_MB * 1024 * 1024, config.CACHE_MAX_AGE_SECONDS * 1000);
  // Cached hits are counted and carry their request id, but skip Fastify's request log: a line per hit costs more
  // than the hit. An operator tracing traffic turns LOG_CACHED_HITS on and gets one line per hit, as for the others.
  const logHit = config.LOG_CACHED_HITS
    ? (method: string, url: string, statusCode: number, reqId: string) =>
        app.log.info({ reqId, req: { method, url }, res: { statusCode }, cache: 'hit' }, 'request answered from the cache')
    : undefined;
  const app = Fastify({
    // A cached anonymous read is answered before Fastify builds its request and reply: the answer is already
    // serialised, compressed and carries every header, so nothing of Fastify's is needed for it. A plain one is
    // answered on the socket, before node:http parses it (socket-hits.ts); the others by the HTTP server's handler.
    serverFactory: (handler) =>
      answerHitsOnSockets(
        createServer((req, res) => answerThroughNode(publicResponses, req, res, requestIdFrom, logHit) || handler(req, res)),
        publicResponses,
        requestIdFrom,
        logHit,
      ),
    logger: options.logger ?? { level: config.LOG_LEVEL },
    trustProxy: config.TRUST_PROXY,
    genReqId: requestIdOf,
    // While closing, requests on connections already open are served and those connections closed (modules/ops),
    // rather than answered 503: a proxy in front sends the next request to another process, and none fails.
    return503OnClosing: false,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(servicesPlugin, { config, database: options.database, runJobs: options.runJobs ?? true });
  app.addHook('onReady', () =>
    closePrivateFolders(config.dataDir, {
      embeddedServerAsOtherUser: !config.DATABASE_URL && process.getuid?.() === 0,
      outbox: app.mail.mode === 'outbox',
      warn: (message) => app.log.warn(message),
    }),
  );
  await app.register(errorsPlugin);
  // Before the areas, so its request-id and metrics hooks apply to every route registered after it.
  await app.register(opsPlugin);
  await app.register(inputGuardPlugin);
  // Before the security plugin, so a cached answer is sent by the first hook of the request (it replays the
  // security headers its first answer carried).
  await app.register(publicCachePlugin, { cache: publicResponses });
  await app.register(securityPlugin);
  await app.register(multipart, {
    limits: { fileSize: Math.max(config.MAX_IMAGE_MB, config.MAX_VIDEO_MB), files: 50, fields: 100, fieldSize: 200_000 },
  });
  await app.register(authPlugin);
  await app.register(mediaPlugin);
  await app.register(webPlugin, { distDir: options.webDistDir, ssrDir: options.webSsrDir });
  await app.register(healthRoutes);
  for (const area of areaPlugins) await app.register(area);
  return app as unknown as FastifyInstance;
}
