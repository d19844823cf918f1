import fp from 'fastify-plugin';
import { z } from 'zod';
import { API_BASE, CATEGORY_LIST, recordSchema, TOTAL_COUNT_HEADER } from '@app/shared';
import { refusals } from '../../errors';
import { registerCategoryRoutes } from './category-routes';
import { RecordFragments } from './fragments';
import { registerImageRoutes } from './image-routes';
import { registerPeopleRoutes } from './people-routes';
import { ListPositions } from './list-positions';
import { pageQuerySchema, type PageQuery } from './paging';
import { createPublicReads, type PublicReads } from './public-reads';
import { recordRoutes } from './routes-context';
import { notModified } from './schemas';
import { registerTrashRoutes } from './trash-routes';
import { RecordWrites } from './writes';

declare module 'fastify' {
  interface FastifyInstance {
    /** Reads as an anonymous visitor gets them, for the link previews and feeds (see public-reads.ts). */
    publicReads: PublicReads;
    /** Records serialised for the reads, cleared by every change of records (see fragments.ts). */
    recordFragments: RecordFragments;
    /** Positions in the lists, cleared with the serialised records (see list-positions.ts). */
    listPositions: ListPositions;
    /** The records' write service, for areas that create records as the create route does (imports). */
    recordWrites: RecordWrites;
  }
}

/**
 * The records API: every category's routes, the newest records of all, the images and the trash. Not encapsulated:
 * search reads through `recordFragments`, seo through `publicReads` (and the fragments test reads the former).
 */
export default fp(
  async (app) => {
    // A quarter of the response cache's memory: enough for tens of thousands of records of about a kilobyte.
    const maxAgeMs = app.config.CACHE_MAX_AGE_SECONDS * 1000;
    const fragments = new RecordFragments((app.config.CACHE_MAX_MB * 1024 * 1024) / 4, maxAgeMs);
    app.decorate('recordFragments', fragments);
    const positions = new ListPositions(maxAgeMs);
    app.decorate('listPositions', positions);
    app.onContentChanged(({ area }) => {
      if (area !== 'records') return;
      fragments.clear();
      positions.clear();
    });
    app.decorate('publicReads', createPublicReads(app));
    const writes = new RecordWrites({ db: app.db, media: app.media, audit: app.audit, captures: app.captures });
    app.decorate('recordWrites', writes);
    const routes = recordRoutes(app, writes);
    const { sendRead } = routes;

    app.get(
      `${API_BASE}/news`,
      {
        schema: {
          tags: ['records'],
          summary: 'Newest records of every category',
          description: `Live records of all categories, newest first (createdAt, then id). Paginated; total in ${TOTAL_COUNT_HEADER}.`,
          querystring: pageQuerySchema,
          response: { 200: z.array(recordSchema), 304: notModified, ...refusals(400) },
        },
      },
      (request, reply) => sendRead(request, reply, { kind: 'news', query: request.query as PageQuery }),
    );
    registerImageRoutes(app, routes);
    registerTrashRoutes(app, routes);
    registerPeopleRoutes(app);
    for (const category of CATEGORY_LIST) registerCategoryRoutes(app, routes, category);
  },
  { name: 'records', dependencies: ['db', 'auth', 'media', 'captures'] },
);
