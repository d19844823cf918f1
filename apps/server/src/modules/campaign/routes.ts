import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { API_BASE, campaignCountrySchema } from '@app/shared';
import { etagMatches } from '../../etag';
import { registerCorrectionRoutes } from './correction-routes';
import { DirectoryView } from './directory-view';
import { registerLetterRoutes } from './letter-routes';

const tags = ['campaign'];

/** Routes of the campaign area. Registered encapsulated, so its form-body parser applies to these routes only. */
export async function campaignRoutes(app: FastifyInstance) {
  // The campaign form may post as a plain HTML form (no JavaScript) as well as JSON.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  const directory = new DirectoryView(app.db, app.config.publicUrl);
  app.get(
    `${API_BASE}/campaign/directory`,
    { schema: { tags, summary: 'Countries, provinces and representatives, with each default letter', response: { 200: z.array(campaignCountrySchema), 304: z.unknown().describe('Not modified') } } },
    async (request, reply) => {
      const { etag, body } = await directory.current();
      reply.header('etag', etag).header('cache-control', 'public, max-age=60, must-revalidate').header('vary', 'Accept-Encoding');
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.status(304).send();
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );

  registerLetterRoutes(app);
  registerCorrectionRoutes(app);
}
