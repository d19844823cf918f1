import { z } from 'zod';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  API_BASE,
  CATEGORY_LIST,
  can,
  dismissBodySchema,
  duplicateCandidateSchema,
  duplicatePairSchema,
  duplicateQuerySchema,
  mergeBodySchema,
} from '@app/shared';
import { httpError, refusals } from '../../errors';
import { PRIVATE_CACHE_CONTROL } from '../cache/response-cache';
import { findDuplicates } from './check';
import { DuplicateWrites } from './merge';
import { mergedPageRedirect } from './merged-pages';
import { possibleDuplicates } from './pairs';

const pairsQuery = z.object({
  limit: z.coerce.number({ error: 'Must be a whole number from 1 to 200' }).int({ error: 'Must be a whole number from 1 to 200' }).min(1).max(200).default(50),
});

async function actorOf(request: FastifyRequest) {
  const actor = await request.getActor();
  if (!actor) throw httpError.unauthorized();
  return actor;
}

/** The check of each category whose records are one person, asked by its add and edit forms. */
function registerCheckRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  for (const category of CATEGORY_LIST.filter((c) => c.checksDuplicates)) {
    app.get(
      `${API_BASE}/${category.slug}/duplicates`,
      {
        preHandler: app.requireActor,
        schema: {
          tags: [category.slug],
          summary: `Likely duplicates of a ${category.slug} record about to be saved (signed in)`,
          description:
            "Records of this category with a similar name (Ge'ez and Latin spellings compared in Latin letters), scored higher when they share the incident, a date within a few days or the woreda; best first. Only records the asker may read; never trashed or merged ones, nor pairs an admin marked as different people.",
          querystring: duplicateQuerySchema,
          response: { 200: z.array(duplicateCandidateSchema), ...refusals(400, 401) },
        },
      },
      async (request, reply) => {
        const actor = await actorOf(request);
        reply.header('cache-control', PRIVATE_CACHE_CONTROL);
        return findDuplicates(app.db, category.slug, request.query, can.readPrivate(actor));
      },
    );
  }
}

/**
 * Duplicate people (docs/duplicates.md): the check the forms of person categories run before saving, and the admins'
 * possible duplicates, merged or marked as different people.
 */
const duplicatesArea: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const writes = new DuplicateWrites({ db: app.db, audit: app.audit });
  const staffOnly = app.requireRole('admin', 'super');
  // A merged person's page leads to the kept record's page, as its API address does.
  app.pageRedirects.push(mergedPageRedirect(app.publicReads));

  registerCheckRoutes(fastify);

  app.get(
    `${API_BASE}/duplicates`,
    {
      preHandler: staffOnly,
      schema: {
        tags: ['duplicates'],
        summary: 'Possible duplicate people, best first (admin, super)',
        querystring: pairsQuery,
        response: { 200: z.array(duplicatePairSchema), ...refusals(400, 401, 403) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', PRIVATE_CACHE_CONTROL);
      return possibleDuplicates(app.db, request.query.limit);
    },
  );

  app.post(
    `${API_BASE}/duplicates/merge`,
    {
      preHandler: staffOnly,
      schema: {
        tags: ['duplicates'],
        summary: 'Merge two records of the same person (admin, super): the other goes to the trash and leads to the kept one',
        body: mergeBodySchema,
        response: { 200: z.object({ category: z.string(), keep: z.string() }), ...refusals(400, 401, 403, 404, 415) },
      },
    },
    async (request) => {
      const merged = await writes.merge(request.body, await actorOf(request));
      app.contentChanged({ area: 'records', category: merged.category });
      return merged;
    },
  );

  app.post(
    `${API_BASE}/duplicates/dismiss`,
    {
      preHandler: staffOnly,
      schema: {
        tags: ['duplicates'],
        summary: 'Mark two records as different people (admin, super): never shown as duplicates again',
        body: dismissBodySchema,
        response: { 204: z.null().describe('Marked'), ...refusals(400, 401, 403, 404, 415) },
      },
    },
    async (request, reply) => {
      await writes.dismiss(request.body, await actorOf(request));
      app.contentChanged({ area: 'records' });
      return reply.status(204).send(null);
    },
  );
};

export default duplicatesArea;
