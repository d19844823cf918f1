import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_BASE } from '@app/shared';
import { etagMatches } from '../../etag';
import type { ContentChange } from '../../plugins/services';
import { keepUncompressed, type Encoding } from '../../compression';
import { cacheKey, type CacheKeyOptions } from './keys';
import { PostgresListener } from './postgres-listener';
import { CHANNEL, changesThroughRedis } from './redis-changes';
import { cachedAnswer, writeCachedAnswer } from './cached-answer';
import { makeEntry, pickEncoding, wireFor, type CachedResponse, type Produced, type ServedCounts, type WireHeaders } from './cached-entry';
import type { ResponseCache } from './response-cache';

declare module 'fastify' {
  interface FastifyInstance {
    publicCache: {
      /**
       * Answers an anonymous public read from the cache, or produces, stores and sends it. Signed-in requests (and
       * responses produced with `cacheable: false`) go past the cache.
       */
      serve: (
        request: FastifyRequest,
        reply: FastifyReply,
        produce: () => Promise<Produced & { cacheable?: boolean }>,
        options?: CacheKeyOptions,
      ) => Promise<FastifyReply>;
      /**
       * The compressed body of the public answer stored for this request's URL, when `etag` says a signed-in reader's
       * answer is that very answer (so it need not be compressed again); null otherwise.
       */
      storedBody: (request: FastifyRequest, etag: string | undefined, options?: CacheKeyOptions) => { body: Buffer; encoding: Encoding | null } | null;
      stats: () => { entries: number; bytes: number; hits: number; misses: number; aliasBytes: number };
      /** The answers sent from the cache (socket or node:http), per route, method and status: /metrics adds them. */
      servedByRoute: () => Iterable<ServedCounts>;
      /** Whether a request for this exact URL is answered before routing (stored under it, or an alias of its key). */
      answersBeforeRouting: (url: string) => boolean;
      /**
       * Whether the connections that bring other processes' changes hold now: PostgreSQL's LISTEN and the Redis
       * subscription (`null`: not used here). While one is down this process may serve what another one changed.
       */
      listeners: () => { postgres: boolean | null; redis: boolean | null };
    };
  }
}


/** The public list of delivered letters, in the API and as a page. */
const isReportsKey = (key: string) => key.startsWith(`${API_BASE}/reports`) || key === '/reports' || key.startsWith('/reports?');

/** Headers that differ per answer and are written per encoding, never copied from the first response. */
const PER_ANSWER = new Set([
  'content-length', 'content-encoding', 'etag', 'vary', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'x-request-id',
]);

/** Sends an entry; `body` is the one picked for this request's Accept-Encoding. */
function send(request: FastifyRequest, reply: FastifyReply, entry: CachedResponse, picked: () => ReturnType<typeof pickEncoding>): FastifyReply {
  reply.headers(entry.headers).header('etag', entry.etag).header('vary', 'Accept-Encoding, Authorization');
  if (etagMatches(request.headers['if-none-match'], entry.etag)) return reply.status(304).send();
  const { body, encoding } = picked();
  if (encoding) reply.header('content-encoding', encoding);
  else keepUncompressed(request);
  return reply.status(entry.status).header('content-length', body.length).send(body);
}

/** The header lists of a stored entry, built from the headers the first answer really carried. */
function wireHeaders(entry: CachedResponse, sent: Record<string, unknown>): WireHeaders {
  const base: string[] = [];
  for (const [name, value] of Object.entries(sent)) {
    if (value === undefined || PER_ANSWER.has(name.toLowerCase())) continue;
    base.push(name, String(value));
  }
  base.push('etag', entry.etag, 'vary', 'Accept-Encoding, Authorization');
  const wire: WireHeaders = { base, identity: wireFor(base, entry.identityLength, null) };
  for (const [encoding, body] of Object.entries(entry.encoded) as [Encoding, Buffer][]) wire[encoding] = wireFor(base, body.length, encoding);
  return wire;
}

/**
 * Answers an anonymous public read from the cache, or produces, stores and sends it (see `publicCache.serve`).
 */
async function serveAnonymous(
  cache: ResponseCache,
  request: FastifyRequest,
  reply: FastifyReply,
  produce: () => Promise<Produced & { cacheable?: boolean }>,
  options?: CacheKeyOptions,
): Promise<FastifyReply> {
  const anonymous = !request.headers.authorization;
  const key = cacheKey(request, options);
  const accept = request.headers['accept-encoding'];
  // The server answers exact URLs before Fastify (app.ts); requests that reach Fastify (app.inject, a hit stored
  // while the request was on its way, the same answer asked for with other parameters) are answered here, by key.
  const method = request.method === 'HEAD' ? 'HEAD' : 'GET';
  const answer = anonymous ? cachedAnswer(cache, method, key, request.headers['if-none-match'], accept) : null;
  if (answer) {
    // Next time the server (or the socket) finds it by this spelling of the URL. Fastify's hooks count it.
    cache.alias(request.url, key);
    reply.hijack();
    writeCachedAnswer(reply.raw, answer, request.id);
    return reply;
  }
  if (anonymous) cache.misses++;
  const generation = cache.currentGeneration();
  const produced = await produce();
  const entry = makeEntry(produced);
  const sent = send(request, reply, entry, () => pickEncoding(entry, accept, { first: true }));
  if (anonymous && produced.cacheable !== false && produced.status === 200 && cache.admits(key, entry)) {
    entry.wire = wireHeaders(entry, reply.getHeaders());
    // Counted under the route's pattern, as /metrics counts the answers Fastify sends.
    entry.served = cache.servedCounts(request.routeOptions.url ?? 'unmatched');
    if (cache.set(key, entry, generation)) cache.alias(request.url, key);
  }
  return sent;
}

/**
 * The cache of public responses. A change of what the public sees (app.contentChanged) clears what it makes stale,
 * here and, through Redis or PostgreSQL notifications, in every other server process.
 */
export default fp<{ cache: ResponseCache }>(
  async (app, { cache }) => {
    const instanceId = randomUUID();
    let broadcast: (area: ContentChange['area']) => void = () => {};
    // Other processes' changes arrive as "<their id> <area>", and reach every listener here as changes made elsewhere.
    const fromOthers = (message: string) => {
      const [from, area] = message.split(' ');
      if (from !== instanceId) app.contentChanged({ area: area === 'reports' ? 'reports' : 'records', elsewhere: true });
    };

    // PostgreSQL notifications always carry changes when the database is a server; Redis, when configured, carries
    // them first. While Redis is unreachable a change goes through PostgreSQL instead, so no process keeps serving
    // what a write made stale (a change may then arrive twice, which clears twice: harmless).
    let notifyPostgres: ((area: ContentChange['area']) => void) | null = null;
    // After a listener's connection came back, changes sent while it was away are lost: every cache here is treated
    // as stale (cleared as by a change made elsewhere), whatever the outage was.
    const resync = () => app.contentChanged({ area: 'records', elsewhere: true });
    let postgresListener: PostgresListener | null = null;
    if (app.database.url) {
      const listener = new PostgresListener({ url: app.database.url, channel: CHANNEL, onMessage: fromOthers, onReconnected: resync, log: app.log });
      await listener.start();
      postgresListener = listener;
      notifyPostgres = (area) =>
        void app.database
          .query('select pg_notify($1, $2)', [CHANNEL, `${instanceId} ${area}`])
          .catch((err) => app.log.error({ err }, 'cache broadcast failed'));
      broadcast = notifyPostgres;
      app.addHook('onClose', async () => listener.stop());
    }
    const redis = app.redis;
    const throughRedis = redis ? await changesThroughRedis(app, redis, { instanceId, fromOthers, resync, notifyPostgres }) : null;
    if (throughRedis) broadcast = throughRedis.broadcast;

    /** Drops what a change makes stale: delivered letters touch only the reports; anything else, every entry. */
    function clear(area: ContentChange['area']) {
      if (area === 'reports') cache.invalidateWhere(isReportsKey);
      else cache.invalidateAll();
    }

    // The one listener of content changes: here, and through Redis or PostgreSQL in every other process, before the
    // change's response is sent (the emitters call it after their commit).
    app.onContentChanged(({ area, elsewhere }) => {
      clear(area);
      if (!elsewhere) broadcast(area);
    });

    app.decorate('publicCache', {
      serve: (request, reply, produce, options) => serveAnonymous(cache, request, reply, produce, options),
      storedBody(request, etag, options) {
        if (!etag) return null;
        const key = cacheKey(request, options);
        const stored = cache.get(key);
        return stored?.etag === etag && stored.status === 200 ? cache.bodyOf(key, stored, request.headers['accept-encoding']) : null;
      },
      stats: () => ({ entries: cache.size, bytes: cache.bytes, hits: cache.hits, misses: cache.misses, aliasBytes: cache.aliasBytes }),
      servedByRoute: () => cache.servedByRoute(),
      answersBeforeRouting: (url) => Boolean(cache.lookup(url)?.entry.wire),
      listeners: () => ({ postgres: postgresListener ? postgresListener.listening : null, redis: throughRedis ? throughRedis.holds() : null }),
    });
  },
  { name: 'public-cache', dependencies: ['db'] },
);
