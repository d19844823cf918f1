import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '@app/shared';
import { keepUncompressed, sendPerRequest } from '../../compression';
import { etagMatches } from '../../etag';
import type { CacheKeyOptions } from '../cache/keys';
import { PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL } from '../cache/response-cache';
import type { ReadResponse } from './reads';

/**
 * Sends a read computed for its reader: anonymous readers through the response cache (keyed by `cacheKeyOptions`),
 * signed-in readers computed with what they may read, never stored. Every read of records (lists, search) is sent by
 * this one function, so none of them can store a signed-in answer where an anonymous visitor would get it.
 */
export async function sendReadFor(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  /** The read for a signed-in reader, or for an anonymous visitor (null). */
  compute: (reader: Actor | null) => Promise<ReadResponse>,
  cacheKeyOptions?: CacheKeyOptions,
): Promise<FastifyReply> {
  const anonymousRead = async () => {
    const produced = await compute(null);
    if (produced.status === 200) produced.headers['cache-control'] ??= PUBLIC_CACHE_CONTROL;
    return produced;
  };
  if (!request.hasAuthHeader && app.hasDecorator('publicCache')) {
    // The response cache (modules/cache) stores the serialised answer and handles If-None-Match itself.
    return app.publicCache.serve(
      request,
      reply,
      async () => {
        const produced = await anonymousRead();
        return {
          status: produced.status,
          headers: { ...produced.headers, 'content-type': 'application/json; charset=utf-8' },
          body: produced.bytes,
          cacheable: produced.status === 200,
        };
      },
      cacheKeyOptions,
    );
  }
  let response: ReadResponse;
  if (!request.hasAuthHeader) {
    response = await anonymousRead();
  } else {
    response = await compute(await request.getActor());
    if (response.status === 200) response.headers['cache-control'] = PRIVATE_CACHE_CONTROL;
  }
  if (response.status === 200 && etagMatches(request.headers['if-none-match'], response.headers.etag)) {
    const { etag, 'cache-control': cacheControl } = response.headers;
    return reply.status(304).headers({ etag, 'cache-control': cacheControl, vary: 'Accept-Encoding, Authorization' }).send();
  }
  reply.status(response.status).headers(response.headers).header('content-type', 'application/json; charset=utf-8');
  // A signed-in reader who sees what anonymous visitors see gets the bytes already compressed for them.
  const stored = request.hasAuthHeader && app.hasDecorator('publicCache') ? app.publicCache.storedBody(request, response.headers.etag, cacheKeyOptions) : null;
  if (stored) {
    reply.header('vary', 'Accept-Encoding, Authorization');
    if (stored.encoding) reply.header('content-encoding', stored.encoding);
    else keepUncompressed(request);
    return reply.header('content-length', stored.body.length).send(stored.body);
  }
  return sendPerRequest(request, reply, response.bytes);
}
