import fp from 'fastify-plugin';
import { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import {
  API_BASE,
  CATEGORY_LIST,
  TOTAL_COUNT_HEADER,
  can,
  recordInputSchema,
  uploadFields,
  type Actor,
  type CategoryDef,
} from '@app/shared';
import { httpError } from '../../errors';
import { etagMatches } from '../../etag';
import { PRIVATE_CACHE_CONTROL } from '../cache/response-cache';
import { toGalleryItem, toRecordDto, toRecordDtos } from './dto';
import { linkHeader, isUuid, pageQuerySchema, resolvePage, type PageQuery } from './paging';
import { createPublicReads, type PublicReads } from './public-reads';
import { computeRead, type ReadResponse, type ReadTarget } from './reads';
import { findLiveMedia, findRecord, listTrash } from './repository';
import { RecordWrites } from './writes';

declare module 'fastify' {
  interface FastifyInstance {
    /** Anonymous public reads: the one place a response cache wraps (see public-reads.ts). */
    publicReads: PublicReads;
  }
}

const idParams = z.object({ id: z.string().describe('Record id (uuid)') });
const imageParams = z.object({ id: z.string().describe('Record id (uuid)'), imageId: z.string().describe('Image (media) id') });

/**
 * Create and edit bodies are read from the stream (multipart) or the parsed JSON by the handler, which validates
 * them with the registry schema; the route's body schema is there for the OpenAPI document only.
 */
const documentOnlyBody: FastifySchemaCompiler<z.ZodType> = (route) =>
  route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route);

function bodyDocSchema(category: CategoryDef, partial: boolean) {
  const files: Record<string, z.ZodType> = {};
  for (const field of uploadFields(category)) {
    const description =
      field.kind === 'video' ? 'Video file (multipart only)' : field.kind === 'images' ? 'Image files, field files[] or files (multipart only)' : 'Image file (multipart only)';
    files[field.name] = z.any().optional().describe(description);
  }
  return recordInputSchema(category, { partial }).extend(files);
}

const WRITE_CONSUMES = ['multipart/form-data', 'application/json'];

function requireId(id: string): string {
  if (!isUuid(id)) throw httpError.notFound();
  return id.toLowerCase();
}

export default fp(
  async (app) => {
    const publicReads = createPublicReads(app);
    app.decorate('publicReads', publicReads);
    const writes = new RecordWrites(app);

    /** Anonymous requests go through publicReads (cacheable); signed-in ones are computed for the reader. */
    async function sendRead(request: FastifyRequest, reply: FastifyReply, target: ReadTarget) {
      let response: ReadResponse;
      if (!request.hasAuthHeader && app.hasDecorator('publicCache')) {
        // The response cache (modules/cache) stores the serialised answer and handles If-None-Match itself.
        return app.publicCache.serve(
          request,
          reply,
          async () => {
            const produced = await app.publicReads.read(target);
            return {
              status: produced.status,
              headers: { ...produced.headers, 'content-type': 'application/json; charset=utf-8' },
              body: JSON.stringify(produced.body),
              cacheable: produced.status === 200,
            };
          },
          // One record or image reads no query parameter: any given is ignored, not a key of its own.
          target.kind === 'one' || target.kind === 'image' ? { params: [] } : undefined,
        );
      }
      if (!request.hasAuthHeader) {
        response = await app.publicReads.read(target);
      } else {
        const actor = await request.getActor();
        response = await computeRead(app, target, can.readPrivate(actor));
        if (response.status === 200) response.headers['cache-control'] = PRIVATE_CACHE_CONTROL;
      }
      reply.header('vary', 'Authorization');
      if (response.status === 200 && etagMatches(request.headers['if-none-match'], response.headers.etag)) {
        const { etag, 'cache-control': cacheControl } = response.headers;
        return reply.status(304).headers({ etag, 'cache-control': cacheControl }).send();
      }
      return reply.status(response.status).headers(response.headers).send(response.body);
    }

    async function actorOf(request: FastifyRequest): Promise<Actor> {
      const actor = await request.getActor();
      if (!actor) throw httpError.unauthorized();
      return actor;
    }

    async function recordResponse(id: string, options: { withTrash?: boolean } = {}) {
      const row = await findRecord(app.db, id);
      if (!row) throw httpError.notFound();
      const files = await app.media.forRecords([row.id]);
      return toRecordDto(row, files.get(row.id) ?? [], app.media, options);
    }

    const staffOnly = app.requireRole('admin', 'super');

    // ---- Derived reads ----
    app.get(
      `${API_BASE}/news`,
      {
        schema: {
          tags: ['records'],
          summary: 'Newest records of every category',
          description: `Live records of all categories, newest first (createdAt, then id). Paginated; total in ${TOTAL_COUNT_HEADER}.`,
          querystring: pageQuerySchema,
        },
      },
      (request, reply) => sendRead(request, reply, { kind: 'news', query: request.query as PageQuery }),
    );
    app.get(
      `${API_BASE}/images`,
      {
        schema: {
          tags: ['images'],
          summary: 'Gallery: every image of live records in gallery categories, newest record first',
          description: 'Items {_id (media id), imageId, imageUrl, variants, width, height, caption, graphic, recordId, category, title}. Offset paging.',
          querystring: pageQuerySchema,
        },
      },
      (request, reply) => sendRead(request, reply, { kind: 'images', query: request.query as PageQuery }),
    );
    app.get(
      `${API_BASE}/images/:id`,
      { schema: { tags: ['images'], summary: 'One gallery image', params: idParams } },
      (request, reply) => sendRead(request, reply, { kind: 'image', id: requireId((request.params as { id: string }).id) }),
    );
    app.put(
      `${API_BASE}/images/:id/edit`,
      {
        preHandler: app.requireActor,
        validatorCompiler: documentOnlyBody as never,
        schema: {
          tags: ['images'],
          summary: 'Replace one image (field image) and/or its caption (field caption); owner, admin or super',
          params: idParams,
          consumes: WRITE_CONSUMES,
          body: z.object({ caption: z.string().max(1000).optional(), image: z.any().optional().describe('Replacement image file') }),
        },
      },
      async (request) => {
        const actor = await actorOf(request);
        const newId = await writes.editImage(request, requireId((request.params as { id: string }).id), actor);
        const found = await findLiveMedia(app.db, newId);
        app.contentChanged({ area: 'records', category: found?.record.category ?? null });
        return toGalleryItem(found!, app.media);
      },
    );
    app.delete(
      `${API_BASE}/images/:id/delete`,
      { preHandler: app.requireActor, schema: { tags: ['images'], summary: 'Take one image off its record; owner, admin or super', params: idParams } },
      async (request) => {
        const actor = await actorOf(request);
        const record = await writes.removeImage(requireId((request.params as { id: string }).id), actor);
        app.contentChanged({ area: 'records', category: record.category });
        return recordResponse(record.id);
      },
    );

    // ---- Trash ----
    app.get(
      `${API_BASE}/trash`,
      {
        preHandler: staffOnly,
        schema: { tags: ['trash'], summary: 'Records in the trash, most recently deleted first (admin, super)', querystring: pageQuerySchema },
      },
      async (request, reply) => {
        const page = resolvePage({ ...(request.query as PageQuery), cursor: undefined })!;
        const { rows, total } = await listTrash(app.db, page);
        const link = linkHeader(`${API_BASE}/trash`, page, total, rows.length, null);
        reply.header(TOTAL_COUNT_HEADER, String(total)).header('cache-control', PRIVATE_CACHE_CONTROL);
        if (link) reply.header('link', link);
        return toRecordDtos(rows, app.media, { withTrash: true });
      },
    );
    app.put(
      `${API_BASE}/trash/:id/restore`,
      { preHandler: staffOnly, schema: { tags: ['trash'], summary: 'Restore a record from the trash (admin, super)', params: idParams } },
      async (request) => {
        const actor = await actorOf(request);
        const id = requireId((request.params as { id: string }).id);
        app.contentChanged({ area: 'records', category: await writes.restore(id, actor) });
        return recordResponse(id);
      },
    );
    app.delete(
      `${API_BASE}/trash/:id`,
      {
        preHandler: app.requireRole('super'),
        schema: { tags: ['trash'], summary: 'Purge a trashed record for good (super); its original files stay in storage', params: idParams },
      },
      async (request) => {
        const actor = await actorOf(request);
        const id = requireId((request.params as { id: string }).id);
        app.contentChanged({ area: 'records', category: await writes.purge(id, actor) });
        return { _id: id, purged: true };
      },
    );

    // ---- Every category: one set of handlers, configured by the registry entry ----
    for (const category of CATEGORY_LIST) registerCategory(app, category);

    function registerCategory(app: FastifyInstance, category: CategoryDef) {
      const base = `${API_BASE}/${category.slug}`;
      const tags = [category.slug];
      const recordId = (request: FastifyRequest) => requireId((request.params as { id: string }).id);

      app.get(
        base,
        {
          schema: {
            tags,
            summary: `List ${category.slug}, newest first`,
            description: `JSON array of records; total in ${TOTAL_COUNT_HEADER}, pages in Link (rel=next/prev). ${
              category.hasAccessToggle ? 'Non-public records are left out for anonymous readers.' : ''
            }`,
            querystring: pageQuerySchema,
          },
        },
        (request, reply) => sendRead(request, reply, { kind: 'list', category: category.slug, query: request.query as PageQuery }),
      );
      app.get(
        `${base}/:id`,
        { schema: { tags, summary: `One ${category.slug} record`, params: idParams } },
        (request, reply) => sendRead(request, reply, { kind: 'one', category: category.slug, id: recordId(request) }),
      );
      app.post(
        base,
        {
          preHandler: app.requireActor,
          validatorCompiler: documentOnlyBody as never,
          schema: {
            tags,
            summary: `Create a ${category.slug} record (signed in); 201 with the record`,
            consumes: WRITE_CONSUMES,
            body: bodyDocSchema(category, false),
          },
        },
        async (request, reply) => {
          const actor = await actorOf(request);
          const id = await writes.create(request, category, actor);
          app.contentChanged({ area: 'records', category: category.slug });
          return reply.status(201).send(await recordResponse(id));
        },
      );
      app.put(
        `${base}/:id/edit`,
        {
          preHandler: app.requireActor,
          validatorCompiler: documentOnlyBody as never,
          schema: {
            tags,
            summary: `Edit a ${category.slug} record (owner, admin, super); fields not sent are kept`,
            params: idParams,
            consumes: WRITE_CONSUMES,
            body: bodyDocSchema(category, true),
          },
        },
        async (request) => {
          const actor = await actorOf(request);
          const id = recordId(request);
          await writes.edit(request, category, id, actor);
          app.contentChanged({ area: 'records', category: category.slug });
          return recordResponse(id);
        },
      );
      app.delete(
        `${base}/:id/delete`,
        { preHandler: app.requireActor, schema: { tags, summary: `Move a ${category.slug} record to the trash (owner, admin, super)`, params: idParams } },
        async (request) => {
          const actor = await actorOf(request);
          const id = recordId(request);
          await writes.trash(category, id, actor);
          app.contentChanged({ area: 'records', category: category.slug });
          return recordResponse(id, { withTrash: true });
        },
      );
      if (category.approvable) {
        app.put(
          `${base}/approve/:id`,
          { preHandler: staffOnly, schema: { tags, summary: `Approve a ${category.slug} record (admin, super)`, params: idParams } },
          async (request) => {
            const actor = await actorOf(request);
            const id = recordId(request);
            await writes.approve(category, id, actor);
            app.contentChanged({ area: 'records', category: category.slug });
            return recordResponse(id);
          },
        );
      }
      if (category.hasAccessToggle) {
        app.put(
          `${base}/:id/access`,
          { preHandler: staffOnly, schema: { tags, summary: `Toggle whether a ${category.slug} record is public (admin, super)`, params: idParams } },
          async (request) => {
            const actor = await actorOf(request);
            const id = recordId(request);
            await writes.toggleAccess(category, id, actor);
            app.contentChanged({ area: 'records', category: category.slug });
            return recordResponse(id);
          },
        );
      }
      if (category.media === 'images') {
        app.delete(
          `${base}/:id/image/:imageId/delete`,
          { preHandler: app.requireActor, schema: { tags, summary: `Take one image off a ${category.slug} record (owner, admin, super)`, params: imageParams } },
          async (request) => {
            const actor = await actorOf(request);
            const { imageId } = request.params as { imageId: string };
            const id = recordId(request);
            await writes.removeImage(requireId(imageId), actor, { category, recordId: id });
            app.contentChanged({ area: 'records', category: category.slug });
            return recordResponse(id);
          },
        );
      }
    }
  },
  { name: 'records', dependencies: ['db', 'auth', 'media'] },
);
