import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_BASE, can, isUuid } from '@app/shared';
import { httpError } from '../../errors';
import { findRecordRow } from './access';
import { CAPTURE_FILE_NAMES, CAPTURE_FILES, storedFile } from './files';

const fileParams = z.object({
  captureId: z.string().describe('Capture id (uuid)'),
  file: z.enum(CAPTURE_FILE_NAMES).describe('Which file of the capture'),
});

/**
 * A capture's files: the screenshot to whoever may read the record; the others to its editors, to anyone when an
 * admin opened them to all readers; a browser, which sends no token, through a link the API signed for one of those
 * (media/signed-links.ts).
 */
export function captureFileRoutes(app: FastifyInstance): void {
  const links = app.media.links;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: ['GET', 'HEAD'],
    url: `${API_BASE}/captures/:captureId/:file`,
    schema: { tags: ['captures'], summary: `A file of a capture: ${CAPTURE_FILE_NAMES.join(', ')}`, params: fileParams },
    handler: async (request, reply) => {
      const { captureId, file } = request.params;
      if (!isUuid(captureId)) throw httpError.notFound();
      const capture = await app.captures.find(captureId.toLowerCase());
      const spec = CAPTURE_FILES[file];
      const stored = capture ? storedFile(capture, file) : null;
      if (!capture || !stored || !capture.recordId) throw httpError.notFound();
      // Checked on every request, a signed link or not: a trashed record or a reader who lost the right stops it.
      const record = await findRecordRow(app.db, capture.recordId);
      const actor = links ? await links.readerOfRequest(request, stored.key) : await request.getActor();
      if (!record || record.deletedAt || (!record.public && !can.readPrivate(actor))) throw httpError.notFound();
      if (!spec.inline && !can.modify(actor, record) && !(await app.captures.publicDownload(record.id))) {
        throw actor ? httpError.forbidden("Only the record's editors may download this file") : httpError.unauthorized();
      }
      const size = await app.media.storage.size(stored.key);
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
        .header('x-sha256', stored.sha256);
      if (request.method === 'HEAD') return reply.send();
      return reply.send(await app.media.storage.get(stored.key));
    },
  });
}
