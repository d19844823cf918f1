import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { can } from '@app/shared';
import { records } from '../../db/schema';
import { PEOPLE_CATEGORIES } from './field-columns';

/**
 * incidents.csv's `named_people`: how many live people records are linked to each incident of a batch, counting only
 * those the exporting reader may read (the public ones for anonymous downloads), as GET /{incident}/{id}/people does.
 * A person merged into another is trashed, so it is counted once, under the kept record.
 */
export async function namedPeopleCounter(app: FastifyInstance, request: FastifyRequest) {
  const reader = request.hasAuthHeader ? await request.getActor() : null;
  const includePrivate = can.readPrivate(reader);
  return async (incidentIds: string[]): Promise<Map<string, number>> => {
    if (incidentIds.length === 0) return new Map();
    const where: SQL[] = [inArray(records.incidentId, incidentIds), isNull(records.deletedAt), inArray(records.category, PEOPLE_CATEGORIES)];
    if (!includePrivate) where.push(sql`${records.public}`);
    const rows = await app.db
      .select({ incidentId: records.incidentId, n: sql<number>`count(*)::int` })
      .from(records)
      .where(and(...where))
      .groupBy(records.incidentId);
    return new Map(rows.map((row) => [row.incidentId!, Number(row.n)]));
  };
}
