import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE, SEARCH_FACETS, SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, UNKNOWN_REGION, searchQuerySchema } from '@app/shared';
import { sendReadFor } from '../records/send-read';
import { SEARCH_LIMITS } from './query';
import { inSearchTurn } from '../collection/limiter';
import { SearchKnowledge } from './knowledge';
import { computeSearch, normaliseSearchQuery } from './reads';

/**
 * GET /search: full-text and name search over every category, with facet counts, for what the reader may read.
 * Encapsulated: it adds a route and nothing other areas use. Registered after records, whose reads it uses.
 */
const searchArea: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const knowledge = new SearchKnowledge(app.db);
  // What the filters leave may decide that a search finds nothing: forgotten with every change of records, here or in
  // another process, as the response cache is cleared.
  app.onContentChanged(({ area }) => {
    if (area === 'records') knowledge.forget();
  });
  app.get(
    `${API_BASE}/search`,
    {
      schema: {
        tags: ['search'],
        summary: 'Search every category, with facet counts',
        description:
          'Answers {total, estimated, order, hits: [{record, snippet}], facets, nextCursor}. `record` is the record as the category ' +
          'routes show it; `snippet` is the text around the words found, as plain-text pieces [{text, match}] ' +
          `(match: a word found; never HTML). With \`q\`, hits go best match first: full text (no stemming, so ` +
          'Amharic words match as written) or, when that finds nothing, names and titles with a letter or two wrong ' +
          '(trigram similarity); ' +
          `without \`q\`, newest first. When more records match the words than are ranked (${SEARCH_LIMITS.exactUpTo}), hits go newest ` +
          'first (`order: "newest"`) and `total` and `facets` are counted in a hashed part of the records and scaled, ' +
          'to two significant digits (`estimated: true`). `facets` counts the records found per value of ' +
          `${SEARCH_FACETS.join(', ')} (region "${UNKNOWN_REGION}": not recorded). Anonymous readers search public, ` +
          `live records only; signed-in readers also non-public ones. Pages of ${SEARCH_LIMIT_DEFAULT} ` +
          `(limit up to ${SEARCH_LIMIT_MAX}); the next page is \`cursor=<nextCursor>\`. Bad parameters: 400 ` +
          'with the message of each field. More searches at once than the server computes wait briefly, then get 503 ' +
          'with Retry-After.',
        querystring: searchQuerySchema,
      },
    },
    (request, reply) => {
      const query = normaliseSearchQuery(request.query);
      return sendReadFor(app, request, reply, (reader) => inSearchTurn(app.config, () => computeSearch(app, query, reader, knowledge)), { query });
    },
  );
};

export default searchArea;
