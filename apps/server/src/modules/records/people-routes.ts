import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { API_BASE, INCIDENT_CATEGORIES, can, categoriesLinkingTo, recordSchema, type CategorySlug } from '@app/shared';
import { records } from '../../db/schema';
import { httpError, refusals } from '../../errors';
import { newestFirst } from './list-query';
import { RecordFragments } from './fragments';
import { pageQuerySchema, resolvePage } from './paging';
import { idParams, requireId } from './routes-context';
import { recordsAsFragments, type Fragment } from './serialise';

/** GET /{massacres|events}/{id}/people: the people linked to one incident (issue 39 item 1), a page at a time. */
const peopleAnswer = z.object({
  total: z.number().describe('People linked to the incident whom the reader may read, in every page'),
  counts: z.record(z.string(), z.number()).describe('Those people per category (victims, missings, orphans, displacements)'),
  people: z.array(recordSchema),
});

export function registerPeopleRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  for (const slug of INCIDENT_CATEGORIES) {
    const linking = categoriesLinkingTo(slug).map((c) => c.slug);
    app.get(
      `${API_BASE}/${slug}/:id/people`,
      {
        schema: {
          tags: [slug],
          summary: `The people linked to one ${slug} record, newest first, with counts per category`,
          description: `Victims, missing people, orphans and displacements whose incidentId is this record. 404 when the reader may not read the ${slug} record itself (private, trashed or unknown).`,
          params: idParams,
          querystring: pageQuerySchema,
          response: { 200: peopleAnswer, ...refusals(400, 404) },
        },
      },
      async (request, reply) => {
        const reader = await request.getActor();
        const includePrivate = can.readPrivate(reader);
        const id = requireId(request.params.id);
        const page = resolvePage({ ...request.query, cursor: undefined });
        if (!page) throw httpError.badRequest({ cursor: 'This list has numbered pages only' });
        const [incident] = await app.db
          .select({ public: records.public })
          .from(records)
          .where(and(eq(records.id, id), eq(records.category, slug), isNull(records.deletedAt)))
          .limit(1);
        if (!incident || (!incident.public && !includePrivate)) throw httpError.notFound();
        const where: SQL[] = [eq(records.incidentId, id), isNull(records.deletedAt), inArray(records.category, linking)];
        if (!includePrivate) where.push(sql`${records.public}`);
        const [ids, counted] = await Promise.all([
          app.db.select({ id: records.id }).from(records).where(and(...where)).orderBy(...newestFirst).limit(page.limit).offset(page.offset),
          app.db.select({ category: records.category, n: sql<number>`count(*)::int` }).from(records).where(and(...where)).groupBy(records.category),
        ]);
        const counts: Partial<Record<CategorySlug, number>> = Object.fromEntries(linking.map((c) => [c, 0]));
        for (const row of counted) counts[row.category as CategorySlug] = Number(row.n);
        const total = Object.values(counts).reduce((a, b) => a + (b ?? 0), 0);
        const fragments = (await recordsAsFragments(app, ids.map((row) => row.id), undefined, [], reader)).filter((f): f is Fragment => Boolean(f && !f.trashed));
        const people = RecordFragments.join(fragments, reader !== null);
        reply.header('cache-control', 'private, no-cache').type('application/json; charset=utf-8');
        // Sent as the records' kept bytes, not serialised again (the schema documents it).
        return reply.send(`{"total":${total},"counts":${JSON.stringify(counts)},"people":${people.toBuffer().toString('utf8')}}` as never);
      },
    );
  }
}
