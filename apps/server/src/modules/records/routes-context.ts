import { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { can, recordInputSchema, uploadFields, type Actor, type CategoryDef } from '@app/shared';
import { httpError } from '../../errors';
import { sendPerRequest } from '../../compression';
import { etagMatches } from '../../etag';
import type { CacheKeyOptions } from '../cache/plugin';
import { PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL } from '../cache/response-cache';
import { toRecordDto } from './dto';
import { isUuid } from './paging';
import { computeRead, type ReadResponse, type ReadTarget } from './reads';
import { findRecordView } from './repository';
import type { RecordWrites } from './writes';

/** What the records area's route files share: parameter schemas, the read sender and the write helpers. */

export const idParams = z.object({ id: z.string().describe('Record id (uuid)') });
export const imageParams = z.object({ id: z.string().describe('Record id (uuid)'), imageId: z.string().describe('Image (media) id') });

/**
 * Create and edit bodies are read from the stream (multipart) or the parsed JSON by the handler, which validates
 * them with the registry schema; the route's body schema is there for the OpenAPI document only.
 */
export const documentOnlyBody: FastifySchemaCompiler<z.ZodType> = (route) =>
  route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route);

export function bodyDocSchema(category: CategoryDef, partial: boolean) {
  const files: Record<string, z.ZodType> = {};
  for (const field of uploadFields(category)) {
    const description =
      field.kind === 'video' ? 'Video file (multipart only)' : field.kind === 'images' ? 'Image files, field files[] or files (multipart only)' : 'Image file (multipart only)';
    files[field.name] = z.any().optional().describe(description);
  }
  return recordInputSchema(category, { partial }).extend(files);
}

export const WRITE_CONSUMES = ['multipart/form-data', 'application/json'];

export function requireId(id: string): string {
  if (!isUuid(id)) throw httpError.notFound();
  return id.toLowerCase();
}

export interface RecordRoutes {
  writes: RecordWrites;
  /** Anonymous requests go through publicReads (cacheable); signed-in ones are computed for the reader. */
  sendRead(request: FastifyRequest, reply: FastifyReply, target: ReadTarget): Promise<FastifyReply>;
  actorOf(request: FastifyRequest): Promise<Actor>;
  recordResponse(id: string, options?: { withTrash?: boolean }): Promise<ReturnType<typeof toRecordDto>>;
  staffOnly: ReturnType<FastifyInstance['requireRole']>;
}

/**
 * Sends a read computed for its reader: anonymous readers through the response cache (keyed by `cacheKeyOptions`),
 * signed-in readers computed with what they may read, never stored. Every read of records (lists, search) is sent by
 * this one function, so none of them can store a signed-in answer where an anonymous visitor would get it.
 */
export async function sendReadFor(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  compute: (includePrivate: boolean) => Promise<ReadResponse>,
  cacheKeyOptions?: CacheKeyOptions,
): Promise<FastifyReply> {
  const anonymousRead = async () => {
    const produced = await compute(false);
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
    const actor = await request.getActor();
    response = await compute(can.readPrivate(actor));
    if (response.status === 200) response.headers['cache-control'] = PRIVATE_CACHE_CONTROL;
  }
  if (response.status === 200 && etagMatches(request.headers['if-none-match'], response.headers.etag)) {
    const { etag, 'cache-control': cacheControl } = response.headers;
    return reply.status(304).headers({ etag, 'cache-control': cacheControl, vary: 'Accept-Encoding, Authorization' }).send();
  }
  reply.status(response.status).headers(response.headers).header('content-type', 'application/json; charset=utf-8');
  return sendPerRequest(request, reply, response.bytes);
}

export function recordRoutes(app: FastifyInstance, writes: RecordWrites): RecordRoutes {
  function sendRead(request: FastifyRequest, reply: FastifyReply, target: ReadTarget) {
    return sendReadFor(
      app,
      request,
      reply,
      (includePrivate) => (includePrivate ? computeRead(app, target, true) : app.publicReads.read(target)),
      // One record or image reads no query parameter: any given is ignored, not a key of its own.
      target.kind === 'one' || target.kind === 'image' ? { params: [] } : undefined,
    );
  }

  async function actorOf(request: FastifyRequest): Promise<Actor> {
    const actor = await request.getActor();
    if (!actor) throw httpError.unauthorized();
    return actor;
  }

  async function recordResponse(id: string, options: { withTrash?: boolean } = {}) {
    const view = await findRecordView(app.db, id);
    if (!view) throw httpError.notFound();
    return toRecordDto(view.record, view.files, app.media, options);
  }

  return { writes, sendRead, actorOf, recordResponse, staffOnly: app.requireRole('admin', 'super') };
}
