import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API_BASE,
  CATEGORY_LIST,
  can,
  dataFields,
  type Actor,
  type CaptureFileDto,
  type CategoryDef,
  type LinkCaptureDto,
  type RecordCapturesDto,
} from '@app/shared';
import type { LinkCaptureRow, RecordRow } from '../../db/schema';
import { httpError } from '../../errors';
import { isUuid } from '../records/paging';
import { findRecord } from '../records/repository';
import { AddressPolicy } from './address-policy';
import { PageCapturer } from './browser';
import { CAPTURE_JOB, CAPTURED_FIELDS, CaptureService, type Capturer } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    captures: CaptureService;
  }
}

const FILES = {
  'screenshot.png': { column: 'screenshot', type: 'image/png', inline: true },
  'snapshot.mhtml': { column: 'snapshot', type: 'multipart/related', inline: false },
  'headers.json': { column: 'headers', type: 'application/json', inline: false },
} as const;
type FileName = keyof typeof FILES;

const idParams = z.object({ id: z.string().describe('Record id (uuid)') });
const fileParams = z.object({
  captureId: z.string().describe('Capture id (uuid)'),
  file: z.enum(Object.keys(FILES) as [FileName, ...FileName[]]).describe('Which file of the capture'),
});

/**
 * Captures of cited links: the `link.capture` job, the routes that list a record's captures and ask for new ones,
 * and the routes that serve a capture's files (screenshots to whoever may read the record; snapshots and headers,
 * which can hold graphic or personal content, to its editors unless an admin opened them to all readers).
 * Not encapsulated: the records area's writes queue captures through the `captures` decorator.
 */
export default fp(
  async (app) => {
    const { config } = app;
    const policy = new AddressPolicy(config.CAPTURE_ALLOW_HOSTS);
    let capturer: PageCapturer | null = null;
    const service = new CaptureService(app.db, {
      enabled: config.CAPTURE_ENABLED,
      jobs: app.jobs,
      audit: app.audit,
      storage: app.media.storage,
      capturer: (): Capturer =>
        (capturer ??= new PageCapturer({
          browserPath: config.CAPTURE_BROWSER_PATH,
          timeoutMs: config.CAPTURE_TIMEOUT_SECONDS * 1000,
          maxBytes: config.CAPTURE_MAX_MB,
          policy,
        })),
      log: { info: (m) => app.log.info(m), warn: (m) => app.log.warn(m) },
    });
    app.decorate('captures', service);
    app.jobs.register(CAPTURE_JOB, async (payload, job) => {
      await service.run(String(payload.captureId), job, Number(payload.maxAttempts) || undefined);
    });
    app.addHook('onClose', async () => capturer?.close());

    // Links signed for their reader, as for hidden media copies: a browser opens a file's URL without the reader's token.
    const links = app.media.links;

    async function readable(request: FastifyRequest, category: CategoryDef, rawId: string) {
      if (!isUuid(rawId)) throw httpError.notFound();
      const row = await findRecord(app.db, rawId.toLowerCase());
      const actor = await request.getActor();
      if (!row || row.deletedAt || row.category !== category.slug) throw httpError.notFound();
      if (!row.public && !can.readPrivate(actor)) throw httpError.notFound();
      return { row, actor };
    }

    function fileDto(row: LinkCaptureRow, name: FileName, allowed: boolean, plain: boolean, reader: Actor | null): CaptureFileDto | null {
      const column = FILES[name].column;
      const key = row[`${column}Key`];
      if (!key) return null;
      const url = `${API_BASE}/captures/${row.id}/${name}`;
      return {
        sha256: row[`${column}Sha256`]!,
        size: row[`${column}Size`]!,
        url: !allowed ? null : plain || !reader || !links ? url : `${url}?v=${links.sign(key, reader)}`,
      };
    }

    function captureDto(row: LinkCaptureRow, record: RecordRow, mayDownload: boolean, publicDownload: boolean, reader: Actor | null): LinkCaptureDto {
      // Plain URLs where an anonymous reader would be let in anyway; signed ones for what only this reader may fetch.
      const openToAll = record.public;
      return {
        id: row.id,
        field: row.field,
        url: row.url,
        status: row.status as LinkCaptureDto['status'],
        reason: row.reason,
        attempts: row.attempts,
        requestedAt: row.requestedAt.toISOString(),
        capturedAt: row.capturedAt?.toISOString() ?? null,
        finalUrl: row.finalUrl,
        httpStatus: row.httpStatus,
        pageTitle: row.pageTitle,
        screenshot: fileDto(row, 'screenshot.png', true, openToAll, reader),
        snapshot: fileDto(row, 'snapshot.mhtml', mayDownload, openToAll && publicDownload, reader),
        headers: fileDto(row, 'headers.json', mayDownload, openToAll && publicDownload, reader),
      };
    }

    async function capturesOf(row: RecordRow, actor: Actor | null): Promise<RecordCapturesDto> {
      const publicDownload = await service.publicDownload(row.id);
      const mayDownload = publicDownload || can.modify(actor, row);
      const rows = await service.list(row.id);
      return {
        publicDownload,
        canRequest: service.enabled && can.modify(actor, row),
        canConfigure: can.toggleAccess(actor),
        captures: rows.map((c) => captureDto(c, row, mayDownload, publicDownload, actor)),
      };
    }

    const capturing = CATEGORY_LIST.filter((c) => dataFields(c).some((f) => (CAPTURED_FIELDS as readonly string[]).includes(f.name)));
    // Typed through the route schemas: `request.params` is what the schemas validated.
    const routes = app.withTypeProvider<ZodTypeProvider>();
    for (const category of capturing) {
      const base = `${API_BASE}/${category.slug}/:id/captures`;
      const tags = [category.slug, 'captures'];
      routes.get(base, { schema: { tags, summary: `Captures of the links a ${category.slug} record cites, newest first`, params: idParams } }, async (request, reply) => {
        const { row, actor } = await readable(request, category, request.params.id);
        reply.header('cache-control', 'private, no-cache').header('vary', 'Authorization');
        return capturesOf(row, actor);
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
          const { row, actor } = await readable(request, category, request.params.id);
          if (!actor) throw httpError.unauthorized();
          if (!can.modify(actor, row)) throw httpError.forbidden('You can only capture the links of records you created');
          if (!service.enabled) throw httpError.unavailable('Captures of links are turned off on this site');
          const url = (request.body as { url?: string } | undefined)?.url;
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
          const { row, actor } = await readable(request, category, request.params.id);
          await service.setPublicDownload(row, (request.body as { publicDownload: boolean }).publicDownload, actor!);
          return capturesOf(row, actor);
        },
      );
    }

    routes.route({
      method: ['GET', 'HEAD'],
      url: `${API_BASE}/captures/:captureId/:file`,
      schema: { tags: ['captures'], summary: 'A file of a capture: screenshot.png, snapshot.mhtml or headers.json', params: fileParams },
      handler: async (request, reply) => {
        const { captureId, file } = request.params;
        if (!isUuid(captureId)) throw httpError.notFound();
        const capture = await service.find(captureId.toLowerCase());
        const spec = FILES[file];
        const key = capture?.[`${spec.column}Key`];
        if (!capture || !key || !capture.recordId) throw httpError.notFound();
        // Checked on every request, a signed link or not: a trashed record or a reader who lost the right stops it.
        const record = await findRecord(app.db, capture.recordId);
        const actor = links ? await links.readerOfRequest(request, key) : await request.getActor();
        if (!record || record.deletedAt || (!record.public && !can.readPrivate(actor))) throw httpError.notFound();
        if (!spec.inline && !can.modify(actor, record) && !(await service.publicDownload(record.id))) {
          throw actor ? httpError.forbidden('Only the record\'s editors may download this file') : httpError.unauthorized();
        }
        const size = await app.media.storage.size(key);
        if (size === null) throw httpError.notFound();
        reply
          .header('content-type', spec.type)
          .header('content-length', size)
          // A private record's file is asked for again each time, so a trash hides even what the browser kept.
          .header('cache-control', record.public ? 'private, max-age=3600' : 'private, no-cache')
          .header('x-content-type-options', 'nosniff')
          // The captured page's own content never runs in the site's origin.
          .header('content-security-policy', "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'")
          .header('content-disposition', `${spec.inline ? 'inline' : 'attachment'}; filename="capture-${capture.id}-${file}"`)
          .header('x-sha256', capture[`${spec.column}Sha256`]!);
        if (request.method === 'HEAD') return reply.send();
        return reply.send(await app.media.storage.get(key));
      },
    });
  },
  { name: 'captures', dependencies: ['db', 'auth', 'media'] },
);
