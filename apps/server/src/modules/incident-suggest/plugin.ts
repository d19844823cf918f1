import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE, INCIDENT_SUGGEST_LIMIT_DEFAULT, INCIDENT_SUGGEST_LIMIT_MAX, can, incidentSuggestQuerySchema } from '@app/shared';
import { answer, etagOf } from '../records/reads';
import { sendReadFor } from '../records/send-read';
import { suggestIncidents } from './query';

/**
 * GET /incidents/suggest: the incident picker's search as you type (issue 39). Encapsulated: a route and nothing other
 * areas use. Sent by sendReadFor, as every read of records: anonymous answers from the public cache, signed-in ones
 * never stored.
 */
const incidentSuggestArea: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    `${API_BASE}/incidents/suggest`,
    {
      schema: {
        tags: ['search'],
        summary: 'Massacres and events whose title, case number, place or date starts as typed',
        description:
          'Answers {incidents: [{id, category, title, date, caseNum, place, region}]}: at most `limit` massacres and events ' +
          `(default ${INCIDENT_SUGGEST_LIMIT_DEFAULT}, up to ${INCIDENT_SUGGEST_LIMIT_MAX}), newest incident date first. Every word of \`q\` ` +
          'must start a word of the title, case number or place (location, city, woreda, zone), case-insensitively; ' +
          '`q` typed as a date (YYYY, YYYY-MM, YYYY-MM-DD) also matches incidents dated in that period. Anonymous readers ' +
          'get public, live records only; signed-in readers also non-public ones; trashed (and merged) records never. ' +
          'Bad parameters: 400 with the message of each field.',
        querystring: incidentSuggestQuerySchema,
      },
    },
    (request, reply) => {
      const q = request.query.q.replace(/\s+/g, ' ');
      const limit = request.query.limit ?? INCIDENT_SUGGEST_LIMIT_DEFAULT;
      return sendReadFor(
        app,
        request,
        reply,
        async (reader) => {
          const incidents = await suggestIncidents(app.db, q, limit, { includePrivate: can.readPrivate(reader) });
          const body = JSON.stringify({ incidents });
          return answer(200, { etag: etagOf([body], {}) }, body);
        },
        { query: { q, limit } },
      );
    },
  );
};

export default incidentSuggestArea;
