import { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { recordInputSchema, uploadFields, type Actor, type CategoryDef } from '@app/shared';
import { httpError, refusals } from '../../errors';
import { sendReadFor } from './send-read';
import { toRecordDto } from './dto';
import { isUuid } from './paging';
import { computeRead, type ReadTarget } from './reads';
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

/**
 * The refusals of a change of one record or image: signed in (401), its owner or staff (403), one that exists (404),
 * and a body it reads (413, 415).
 */
export const CHANGE_REFUSALS = refusals(400, 401, 403, 404, 413, 415);

export function requireId(id: string): string {
  if (!isUuid(id)) throw httpError.notFound();
  return id.toLowerCase();
}

export interface RecordRoutes {
  writes: RecordWrites;
  /** Sends a read: anonymous ones through the response cache, signed-in ones computed for their reader (send-read.ts). */
  sendRead(request: FastifyRequest, reply: FastifyReply, target: ReadTarget): Promise<FastifyReply>;
  actorOf(request: FastifyRequest): Promise<Actor>;
  /** A record as `reader` (who just changed it) is shown it. */
  recordResponse(id: string, reader: Actor, options?: { withTrash?: boolean }): Promise<ReturnType<typeof toRecordDto>>;
  staffOnly: ReturnType<FastifyInstance['requireRole']>;
}

export function recordRoutes(app: FastifyInstance, writes: RecordWrites): RecordRoutes {
  function sendRead(request: FastifyRequest, reply: FastifyReply, target: ReadTarget) {
    return sendReadFor(
      app,
      request,
      reply,
      (reader) => computeRead(app, target, reader),
      // One record or image reads no query parameter: any given is ignored, not a key of its own.
      target.kind === 'one' || target.kind === 'image' ? { params: [] } : undefined,
    );
  }

  async function actorOf(request: FastifyRequest): Promise<Actor> {
    const actor = await request.getActor();
    if (!actor) throw httpError.unauthorized();
    return actor;
  }

  async function recordResponse(id: string, reader: Actor, options: { withTrash?: boolean } = {}) {
    const view = await findRecordView(app.db, id);
    if (!view) throw httpError.notFound();
    return toRecordDto(view.record, view.files, app.media, { ...options, reader, incident: view.incident });
  }

  return { writes, sendRead, actorOf, recordResponse, staffOnly: app.requireRole('admin', 'super') };
}
