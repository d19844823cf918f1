import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE, galleryItemSchema, mediaSchema, recordSchema, type Actor } from '@app/shared';
import { records } from '../../db/schema';
import { httpError, refusals } from '../../errors';
import { diffFields } from '../../services/audit';
import { openBody } from './body';
import { toGalleryItem } from './dto';
import { pageQuerySchema } from './paging';
import { findLiveMedia } from './repository';
import { CHANGE_REFUSALS, WRITE_CONSUMES, documentOnlyBody, idParams, requireId, type RecordRoutes } from './routes-context';
import { notModified } from './schemas';

/** The images API: the gallery and its items, replacing or taking off one image, and its graphic flag. */
export function registerImageRoutes(fastify: FastifyInstance, { writes, sendRead, actorOf, recordResponse }: RecordRoutes): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['images'];
  app.get(
    `${API_BASE}/images`,
    {
      schema: {
        tags,
        summary: 'Gallery: every image of live records in gallery categories, newest record first',
        description: 'Items {_id (media id), imageId, imageUrl, variants, width, height, caption, graphic, recordId, category, title}. Offset paging.',
        querystring: pageQuerySchema,
        response: { 200: z.array(galleryItemSchema), 304: notModified, ...refusals(400) },
      },
    },
    (request, reply) => sendRead(request, reply, { kind: 'images', query: request.query }),
  );
  app.get(
    `${API_BASE}/images/:id`,
    { schema: { tags, summary: 'One gallery image', params: idParams, response: { 200: galleryItemSchema, 304: notModified, ...refusals(400, 404) } } },
    (request, reply) => sendRead(request, reply, { kind: 'image', id: requireId(request.params.id) }),
  );
  app.put(
    `${API_BASE}/images/:id/edit`,
    {
      preHandler: app.requireActor,
      validatorCompiler: documentOnlyBody as never,
      schema: {
        tags,
        summary: 'Replace one image (field image) and/or its caption (field caption); owner, admin or super',
        params: idParams,
        consumes: WRITE_CONSUMES,
        body: z.object({ caption: z.string().max(1000).optional(), image: z.any().optional().describe('Replacement image file') }),
        // 406: a multipart field declared as JSON that is not.
        response: { 200: galleryItemSchema, ...CHANGE_REFUSALS, ...refusals(406) },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      const newId = await writes.editImage(openBody(request), requireId(request.params.id), actor);
      const found = await findLiveMedia(app.db, newId);
      app.contentChanged({ area: 'records', category: found?.record.category ?? null });
      return toGalleryItem(found!, app.media, actor);
    },
  );
  app.delete(
    `${API_BASE}/images/:id/delete`,
    { preHandler: app.requireActor, schema: { tags, summary: 'Take one image off its record; owner, admin or super', params: idParams, response: { 200: recordSchema, ...CHANGE_REFUSALS } } },
    async (request) => {
      const actor = await actorOf(request);
      const record = await writes.removeImage(requireId(request.params.id), actor);
      app.contentChanged({ area: 'records', category: record.category });
      return recordResponse(record.id, actor);
    },
  );

  app.put(
    `${API_BASE}/images/:id/graphic`,
    {
      preHandler: app.requireActor,
      schema: {
        tags,
        summary: 'Mark one image as graphic (shown behind a warning) or not; owner, admin or super',
        params: z.object({ id: z.uuid() }),
        body: z.object({ graphic: z.boolean() }),
        response: { 200: mediaSchema, ...CHANGE_REFUSALS },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { graphic } = request.body as { graphic: boolean };
      const updated = await setGraphic(app, id, graphic, (await request.getActor())!);
      // The graphic flag shows in the gallery and on the record's pages.
      app.contentChanged({ area: 'records' });
      return updated;
    },
  );
}

/** Marks one image as graphic or not, for its record's owner or staff, audited; its file as the actor now sees it. */
async function setGraphic(app: FastifyInstance, id: string, graphic: boolean, actor: Actor) {
  return app.db.transaction(async (tx) => {
    const before = await app.media.get(id, tx);
    if (!before) throw httpError.notFound();
    const [owner] = before.recordId
      ? await tx
          .select({ id: records.id, userId: records.userId, category: records.category })
          .from(records)
          .where(and(eq(records.id, before.recordId), isNull(records.deletedAt)))
          .limit(1)
      : [];
    if (before.recordId && !owner) throw httpError.notFound();
    if (!app.media.mayReadRestricted(actor, { userId: owner?.userId ?? null })) {
      throw httpError.forbidden('Only the owner of the record, an admin or super can change this');
    }
    const after = (await app.media.setGraphic(id, graphic, tx))!;
    const changes = diffFields(before, after, ['graphic']);
    if (Object.keys(changes).length) {
      await app.audit.append(
        { actor, action: 'media.graphic', category: owner?.category ?? null, recordId: owner?.id ?? null, subject: `media:${id}`, changes },
        tx,
      );
    }
    return app.media.toDto(after, { restricted: true, reader: actor });
  });
}
