import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_BASE, TOTAL_COUNT_HEADER, type CategoryDef } from '@app/shared';
import { refusals } from '../../errors';
import { openBody } from './body';
import { pageQuerySchema } from './paging';
import { CHANGE_REFUSALS, WRITE_CONSUMES, bodyDocSchema, documentOnlyBody, idParams, imageParams, requireId, type RecordRoutes } from './routes-context';
import { categoryRecordSchema, notModified } from './schemas';

/** Every category: one set of handlers, configured by its registry entry. */
export function registerCategoryRoutes(fastify: FastifyInstance, { writes, sendRead, actorOf, recordResponse, staffOnly }: RecordRoutes, category: CategoryDef): void {
  // Typed through the route schemas: `request.params` and `request.query` are what the schemas validated.
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/${category.slug}`;
  const tags = [category.slug];
  const recordId = (request: { params: { id: string } }) => requireId(request.params.id);
  const record = categoryRecordSchema(category);
  const changed = { 200: record, ...CHANGE_REFUSALS };

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
        response: { 200: z.array(record), 304: notModified, ...refusals(400) },
      },
    },
    (request, reply) => sendRead(request, reply, { kind: 'list', category: category.slug, query: request.query }),
  );
  app.get(
    `${base}/:id`,
    { schema: { tags, summary: `One ${category.slug} record`, params: idParams, response: { 200: record, 304: notModified, ...refusals(400, 404) } } },
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
        // 406: a multipart field declared as JSON that is not.
        response: { 201: record, ...refusals(400, 401, 406, 413, 415) },
      },
    },
    async (request, reply) => {
      const actor = await actorOf(request);
      const id = await writes.create(openBody(request), category, actor);
      app.contentChanged({ area: 'records', category: category.slug });
      return reply.status(201).send(await recordResponse(id, actor));
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
        response: { ...changed, ...refusals(406) },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      const id = recordId(request);
      await writes.edit(openBody(request), category, id, actor);
      app.contentChanged({ area: 'records', category: category.slug });
      return recordResponse(id, actor);
    },
  );
  app.delete(
    `${base}/:id/delete`,
    { preHandler: app.requireActor, schema: { tags, summary: `Move a ${category.slug} record to the trash (owner, admin, super)`, params: idParams, response: changed } },
    async (request) => {
      const actor = await actorOf(request);
      const id = recordId(request);
      await writes.trash(category, id, actor);
      app.contentChanged({ area: 'records', category: category.slug });
      return recordResponse(id, actor, { withTrash: true });
    },
  );
  if (category.approvable) {
    app.put(
      `${base}/approve/:id`,
      { preHandler: staffOnly, schema: { tags, summary: `Approve a ${category.slug} record (admin, super)`, params: idParams, response: changed } },
      async (request) => {
        const actor = await actorOf(request);
        const id = recordId(request);
        await writes.approve(category, id, actor);
        app.contentChanged({ area: 'records', category: category.slug });
        return recordResponse(id, actor);
      },
    );
  }
  if (category.hasAccessToggle) {
    app.put(
      `${base}/:id/access`,
      { preHandler: staffOnly, schema: { tags, summary: `Toggle whether a ${category.slug} record is public (admin, super)`, params: idParams, response: changed } },
      async (request) => {
        const actor = await actorOf(request);
        const id = recordId(request);
        await writes.toggleAccess(category, id, actor);
        app.contentChanged({ area: 'records', category: category.slug });
        return recordResponse(id, actor);
      },
    );
  }
  if (category.media === 'images') {
    app.delete(
      `${base}/:id/image/:imageId/delete`,
      { preHandler: app.requireActor, schema: { tags, summary: `Take one image off a ${category.slug} record (owner, admin, super)`, params: imageParams, response: changed } },
      async (request) => {
        const actor = await actorOf(request);
        const { imageId } = request.params;
        const id = recordId(request);
        await writes.removeImage(requireId(imageId), actor, { category, recordId: id });
        app.contentChanged({ area: 'records', category: category.slug });
        return recordResponse(id, actor);
      },
    );
  }
}
