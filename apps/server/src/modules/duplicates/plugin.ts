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
import { requireRecentStepUp } from '../../plugins/step-up';
import { PRIVATE_CACHE_CONTROL } from '../cache/response-cache';
import { findDuplicates } from './check';
import { DuplicateWrites } from './merge';
import { mergedPageRedirect } from './merged-pages';
import { decodePairsCursor, possibleDuplicates } from './pairs';
import { scanQueue } from './scan';

/** The header that gives the next page's cursor, as the record lists do (records/reads.ts). */
const NEXT_CURSOR_HEADER = 'X-Next-Cursor';

const pairsQuery = z.object({
  limit: z.coerce.number({ error: 'Must be a whole number from 1 to 200' }).int({ error: 'Must be a whole number from 1 to 200' }).min(1).max(200).default(50),
  cursor: z
    .string({ error: 'Must be the X-Next-Cursor of the page before' })
    .max(100, { error: 'Must be the X-Next-Cursor of the page before' })
    .refine((v) => decodePairsCursor(v) !== null, { error: 'Must be the X-Next-Cursor of the page before' })
    .optional()
    .describe('Where the page starts: the X-Next-Cursor header of the page before'),
});

/** How often a process checks the records queued for the duplicate scan, and for how long at most each time. */
const SCAN_INTERVAL_MS = 30_000;
const SCAN_BUDGET_MS = 20_000;

/**
 * Scans the queue in the background: as soon as records were written here (so a pair just written is on the screen a
 * moment later), and every SCAN_INTERVAL_MS for what other processes or bulk writes queued (or migration 0019: every
 * record of an existing site). Reads never scan, so a read changes nothing. Closing stops it after the batch in
 * progress.
 */
function scheduleScan(app: FastifyInstance): void {
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> | null = null;
  let again = false;
  let closing = false;
  const run = () => {
    if (current) {
      again = true; // written while a scan ran: its records may have been queued after the scan's last batch
      return;
    }
    current = scanQueue(app.db, { budgetMs: SCAN_BUDGET_MS, stop: () => closing })
      .then((scanned) => void (scanned && app.log.info({ scanned }, 'duplicate scan')))
      .catch((err: unknown) => app.log.error({ err }, 'duplicate scan failed; tried again later'))
      .finally(() => {
        current = null;
        if (again && !closing) {
          again = false;
          run();
        }
      });
  };
  app.onContentChanged((change) => {
    if (change.area === 'records' && !change.elsewhere && !closing) run();
  });
  app.addHook('onReady', async () => {
    timer = setInterval(run, SCAN_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    closing = true;
    clearInterval(timer);
    await current;
  });
}

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
  // Tests scan when they mean to (scanQueue), so that no write leaves work running behind the requests they check.
  if (app.config.NODE_ENV !== 'test') scheduleScan(fastify);

  app.get(
    `${API_BASE}/duplicates`,
    {
      preHandler: staffOnly,
      schema: {
        tags: ['duplicates'],
        summary: 'Possible duplicate people of the whole collection, best first, a page at a time (admin, super)',
        description: 'The next page starts at the X-Next-Cursor header of this one (absent on the last page).',
        querystring: pairsQuery,
        response: { 200: z.array(duplicatePairSchema), ...refusals(400, 401, 403) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', PRIVATE_CACHE_CONTROL);
      const cursor = request.query.cursor ? decodePairsCursor(request.query.cursor) : null;
      const { pairs, next } = await possibleDuplicates(app.db, request.query.limit, cursor);
      if (next) reply.header(NEXT_CURSOR_HEADER, next);
      return pairs;
    },
  );

  app.post(
    `${API_BASE}/duplicates/merge`,
    {
      preHandler: [staffOnly, requireRecentStepUp],
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
