import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_BASE, TOTAL_COUNT_HEADER, type Actor, type CategoryDef } from '@app/shared';
import { refusals } from '../../errors';
import { openBody } from './body';
import { pageQuerySchema } from './paging';
import { CHANGE_REFUSALS, WRITE_CONSUMES, bodyDocSchema, documentOnlyBody, idParams, imageParams, requireId, type RecordRoutes } from './routes-context';
import { categoryRecordSchema, mergedRedirectBody, notModified } from './schemas';

/** Every category: one set of handlers, configured by its registry entry. */
export function registerCategoryRoutes(fastify: FastifyInstance, routes: RecordRoutes, category: CategoryDef): void {
  registerCategoryReads(fastify, routes, category);
  registerCategoryWrites(fastify, routes, category);
  registerCategoryModeration(fastify, routes, category);
}

type Typed = ReturnType<FastifyInstance['withTypeProvider']>;
const recordId = (request: { params: { id: string } }) => requireId(request.params.id);

/**
 * A handler of a change of one record: `change` applies it for the signed-in actor; then every cache learns that the
 * category changed, and the record is answered as its actor now sees it.
 */
function changeHandler<R extends { params: { id: string } }>(
  app: Typed,
  { actorOf, recordResponse }: RecordRoutes,
  category: CategoryDef,
  change: (request: R, id: string, actor: Actor) => Promise<unknown>,
  options: { withTrash?: boolean } = {},
) {
  return async (request: R) => {
    const actor = await actorOf(request as unknown as FastifyRequest);
    const id = recordId(request);
    await change(request, id, actor);
    app.contentChanged({ area: 'records', category: category.slug });
    return recordResponse(id, actor, options);
  };
}

/** The list (newest first) and one record. */
function registerCategoryReads(fastify: FastifyInstance, { sendRead }: RecordRoutes, category: CategoryDef): void {
  // Typed through the route schemas: `request.params` and `request.query` are what the schemas validated.
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/${category.slug}`;
  const tags = [category.slug];
  const record = categoryRecordSchema(category);
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
    {
      schema: {
        tags,
        summary: `One ${category.slug} record`,
        // A person merged into another answers 301 to the kept record (for a reader who may read it).
        ...(category.checksDuplicates ? { description: 'A record merged into another answers 301 with the kept record\'s address in Location.' } : {}),
        params: idParams,
        response: { 200: record, ...(category.checksDuplicates ? { 301: mergedRedirectBody } : {}), 304: notModified, ...refusals(400, 404) },
      },
    },
    (request, reply) => sendRead(request, reply, { kind: 'one', category: category.slug, id: recordId(request) }),
  );
}

/** Create, edit and move to the trash (signed in; the owner, admins and supers change a record). */
function registerCategoryWrites(fastify: FastifyInstance, routes: RecordRoutes, category: CategoryDef): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { writes, actorOf, recordResponse } = routes;
  const base = `${API_BASE}/${category.slug}`;
  const tags = [category.slug];
  const record = categoryRecordSchema(category);
  const changed = { 200: record, ...CHANGE_REFUSALS };
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
    changeHandler(app, routes, category, (request, id, actor) => writes.edit(openBody(request as unknown as FastifyRequest), category, id, actor)),
  );
  app.delete(
    `${base}/:id/delete`,
    { preHandler: app.requireActor, schema: { tags, summary: `Move a ${category.slug} record to the trash (owner, admin, super)`, params: idParams, response: changed } },
    changeHandler(app, routes, category, (_request, id, actor) => writes.trash(category, id, actor), { withTrash: true }),
  );
}

/** What the registry gives some categories: approval and the public toggle (staff), taking one image off (owner). */
function registerCategoryModeration(fastify: FastifyInstance, routes: RecordRoutes, category: CategoryDef): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { writes, staffOnly } = routes;
  const base = `${API_BASE}/${category.slug}`;
  const tags = [category.slug];
  const changed = { 200: categoryRecordSchema(category), ...CHANGE_REFUSALS };
  if (category.approvable) {
    app.put(
      `${base}/approve/:id`,
      { preHandler: staffOnly, schema: { tags, summary: `Approve a ${category.slug} record (admin, super)`, params: idParams, response: changed } },
      changeHandler(app, routes, category, (_request, id, actor) => writes.approve(category, id, actor)),
    );
  }
  if (category.hasAccessToggle) {
    app.put(
      `${base}/:id/access`,
      { preHandler: staffOnly, schema: { tags, summary: `Toggle whether a ${category.slug} record is public (admin, super)`, params: idParams, response: changed } },
      changeHandler(app, routes, category, (_request, id, actor) => writes.toggleAccess(category, id, actor)),
    );
  }
  if (category.media === 'images') {
    app.delete(
      `${base}/:id/image/:imageId/delete`,
      { preHandler: app.requireActor, schema: { tags, summary: `Take one image off a ${category.slug} record (owner, admin, super)`, params: imageParams, response: changed } },
      changeHandler(app, routes, category, (request: { params: { id: string; imageId: string } }, id, actor) =>
        writes.removeImage(requireId(request.params.imageId), actor, { category, recordId: id }),
      ),
    );
  }
}
