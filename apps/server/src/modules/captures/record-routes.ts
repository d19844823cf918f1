import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_BASE, can, type CategoryDef } from '@app/shared';
import { httpError } from '../../errors';
import { readableRecord } from './access';
import type { CaptureViews } from './dto';

const idParams = z.object({ id: z.string().describe('Record id (uuid)') });

/**
 * A category's capture routes: list a record's captures (whoever may read it), ask for new ones (its editors), and
 * open its snapshots to every reader (admins).
 */
export function recordCaptureRoutes(app: FastifyInstance, category: CategoryDef, views: CaptureViews): void {
  const service = app.captures;
  const base = `${API_BASE}/${category.slug}/:id/captures`;
  const tags = [category.slug, 'captures'];
  // Typed through the route schemas: `request.params` is what the schemas validated.
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(base, { schema: { tags, summary: `Captures of the links a ${category.slug} record cites, newest first`, params: idParams } }, async (request, reply) => {
    const { row, actor } = await readableRecord(app.db, request, category, request.params.id);
    reply.header('cache-control', 'private, no-cache').header('vary', 'Authorization');
    return views.of(row, actor);
  });

  routes.post(
    base,
    {
      preHandler: app.requireActor,
      schema: {
        tags,
        summary: `Capture the links of a ${category.slug} record again (owner, admin, super); 202`,
        params: idParams,
        body: z.object({ url: z.string().optional().describe('One of the cited URLs; all of them when left out') }).nullish(),
      },
    },
    async (request, reply) => {
      const { row, actor } = await readableRecord(app.db, request, category, request.params.id);
      if (!actor) throw httpError.unauthorized();
      if (!can.modify(actor, row)) throw httpError.forbidden('You can only capture the links of records you created');
      if (!service.enabled) throw httpError.unavailable('Captures of links are turned off on this site');
      const url = request.body?.url;
      const ids = await app.db.transaction(async (tx) => {
        const { queued, cited } = await service.request(tx, row, actor, url);
        if (!cited) throw httpError.badRequest({ url: url === undefined ? 'This record cites no link' : 'This record does not cite this link' });
        if (!queued.length) throw httpError.conflict({ message: 'A capture of these links is already waiting or running' });
        await app.audit.append(
          { actor, action: 'capture.request', category: row.category, recordId: row.id, changes: { captures: { before: null, after: queued } } },
          tx,
        );
        return queued;
      });
      return reply.status(202).send({ queued: ids });
    },
  );

  routes.put(
    `${base}/settings`,
    {
      preHandler: app.requireRole('admin', 'super'),
      schema: {
        tags,
        summary: `Whether every reader of a ${category.slug} record may download its snapshots (admin, super)`,
        params: idParams,
        body: z.object({ publicDownload: z.boolean() }),
      },
    },
    async (request) => {
      const { row, actor } = await readableRecord(app.db, request, category, request.params.id);
      await service.setPublicDownload(row, request.body.publicDownload, actor!);
      return views.of(row, actor);
    },
  );
}
