import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { API_BASE, letterConfirmationSchema, offsetPageQuerySchema, pageLimit, submittedLetterSchema, TOTAL_COUNT_HEADER } from '@app/shared';
import { AppError, httpError, refusals } from '../../errors';
import { PUBLIC_CACHE_CONTROL } from '../cache/response-cache';
import { submissionSchema } from './submission';

const tags = ['campaign'];
const tokenParams = z.object({ token: z.string().max(200) });

/** What the confirmation page shows; reading never changes anything (mail scanners follow links). */
function confirmationView(row: { id: string; state: string; representativeName: string; district: string }) {
  return { _id: row.id, state: row.state, representative: { name: row.representativeName, district: row.district } };
}

/** Writing a letter, confirming it by its e-mailed link, and the public list of delivered letters. */
export function registerLetterRoutes(app: FastifyInstance) {
  app.post(
    `${API_BASE}/reports`,
    {
      schema: {
        tags,
        summary: 'Write to a representative: the letter is sent after the sender confirms by e-mail',
        response: { 201: submittedLetterSchema, ...refusals(400, 404, 409, 415, 429) },
      },
    },
    async (request, reply) => {
      if (request.isMultipart()) throw new AppError(415, { message: 'Send the letter as JSON or as a URL-encoded form' });
      if (!request.body || typeof request.body !== 'object') throw httpError.badRequest({ message: 'Write your letter' });
      const input = submissionSchema.parse(request.body);
      const row = await app.campaign.submit(input, request.ip);
      return reply.status(201).send({
        _id: row.id,
        state: row.state,
        expiresAt: row.expiresAt.toISOString(),
        notice: `We have e-mailed you a link. Your letter to ${row.representativeName} is sent only after you open it and confirm.`,
      });
    },
  );

  app.get(`${API_BASE}/reports`, async (request, reply) => {
    const query = offsetPageQuerySchema.parse(request.query);
    const limit = pageLimit(query);
    // Delivered letters are public and read far more than written: served through the public response cache.
    const offset = query.offset ?? 0;
    return app.publicCache.serve(
      request,
      reply,
      async () => {
        const { items, total } = await app.campaign.listReports(limit, offset);
        return {
          status: 200,
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'cache-control': PUBLIC_CACHE_CONTROL,
            [TOTAL_COUNT_HEADER.toLowerCase()]: String(total),
            'access-control-expose-headers': TOTAL_COUNT_HEADER,
          },
          body: JSON.stringify(items),
        };
      },
      // Keyed by the values that change the answer (defaults filled in), so other parameters share its entry.
      { query: { limit, offset } },
    );
  });

  // Reading the link's page changes nothing (mail scanners follow links); only the page's button (POST) confirms.
  const confirmationRoute = (method: 'GET' | 'POST', summary: string, letterOf: (token: string) => Promise<Parameters<typeof confirmationView>[0]>) =>
    app.route({
      method,
      url: `${API_BASE}/campaign/confirm/:token`,
      schema: { tags, summary, response: { 200: letterConfirmationSchema, ...refusals(400, 404, 409, 410) } },
      handler: async (request, reply) => {
        const { token } = tokenParams.parse(request.params);
        const row = await letterOf(token);
        reply.header('cache-control', 'no-store');
        return confirmationView(row);
      },
    });
  confirmationRoute('GET', 'What a confirmation link is for (reading it changes nothing)', async (token) => {
    const row = await app.campaign.findByToken(token);
    if (!row) throw httpError.notFound('This link is not valid, or the letter was deleted');
    return row;
  });
  confirmationRoute('POST', 'Confirm a letter: it is queued for sending', (token) => app.campaign.confirm(token));
}
