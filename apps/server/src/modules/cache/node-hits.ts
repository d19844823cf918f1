import type { IncomingMessage, ServerResponse } from 'node:http';
import { cachedAnswer, countServed, writeCachedAnswer, type CachedHitLog, type RequestIdFor } from './cached-answer';
import type { ResponseCache } from './response-cache';

/**
 * The node:http fallback of the socket fast path (socket-hits.ts): a cached anonymous GET or HEAD that node:http
 * parsed (a request that is not plain, or one on a connection handed to node:http) is answered before Fastify builds
 * its request and reply, counted for /metrics and given its request id (`idFor`: of its X-Request-Id header, as the
 * ops area makes them). True when it answered.
 */
export function answerThroughNode(
  cache: ResponseCache,
  req: IncomingMessage,
  res: ServerResponse,
  idFor: RequestIdFor,
  logHit?: CachedHitLog,
): boolean {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || req.headers.authorization || !req.url) return false;
  const answer = cachedAnswer(cache, req.method, req.url, req.headers['if-none-match'], req.headers['accept-encoding']);
  if (!answer) return false;
  countServed(answer);
  const requestId = idFor(req.headers['x-request-id']);
  writeCachedAnswer(res, answer, requestId);
  logHit?.(req.method, req.url, answer.status, requestId);
  return true;
}
