import type { ServerResponse } from 'node:http';
import { etagMatches } from '../../etag';
import type { ServedCounts } from './cached-entry';
import type { ResponseCache } from './response-cache';

/** A cached answer as it goes on the wire: status, the headers its first answer carried, and the body (none for HEAD or 304). */
export interface CachedAnswer {
  status: 200 | 304;
  headers: string[];
  body: Buffer | undefined;
  method: 'GET' | 'HEAD';
  /** Its route's counts (see `countServed`). */
  served: ServedCounts | undefined;
}

/**
 * THE decision of a cache hit: the cached answer to an anonymous GET or HEAD of `url` (a request URL, or the key it
 * normalises to), or null when none is stored (the request goes on to routing). The caller has checked that the
 * request is anonymous.
 */
export function cachedAnswer(
  cache: ResponseCache,
  method: 'GET' | 'HEAD',
  url: string,
  ifNoneMatch: string | undefined,
  acceptEncoding: string | undefined,
): CachedAnswer | null {
  const found = cache.lookup(url);
  const entry = found?.entry;
  if (!found || !entry?.wire) return null;
  cache.hits++;
  if (etagMatches(ifNoneMatch, entry.etag)) return { status: 304, headers: entry.wire.base, body: undefined, method, served: entry.served };
  const { body, encoding } = cache.bodyOf(found.key, entry, acceptEncoding);
  const headers = encoding ? entry.wire[encoding]! : entry.wire.identity;
  return { status: 200, headers, body: method === 'HEAD' ? undefined : body, method, served: entry.served };
}

/** The id a request answered from the cache gets, from its X-Request-Id header (given by the app: ops/request-id.ts). */
export type RequestIdFor = (given: string | string[] | undefined) => string;

/** Told of each answer sent from the cache before Fastify (LOG_CACHED_HITS logs them; app.ts). */
export type CachedHitLog = (method: string, url: string, status: number, requestId: string) => void;

/** Counts an answer sent where Fastify does not see it (its hooks count the others), for /metrics. */
export function countServed(answer: CachedAnswer): void {
  if (answer.served) answer.served[answer.method][answer.status]++;
}

/**
 * The node:http way of sending a cached answer (the socket fast path has its own, socket-hits.ts): the headers its
 * first answer carried (security headers included), then the request's id.
 */
export function writeCachedAnswer(res: ServerResponse, answer: CachedAnswer, requestId: string): void {
  res.writeHead(answer.status, [...answer.headers, 'x-request-id', requestId]);
  res.end(answer.body);
}
