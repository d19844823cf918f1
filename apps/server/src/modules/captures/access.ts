import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { can, isUuid, type CategoryDef } from '@app/shared';
import type { Db } from '../../db';
import { records, type RecordRow } from '../../db/schema';
import { httpError } from '../../errors';

/** The record, live or trashed, or null. */
export async function findRecordRow(db: Db, id: string): Promise<RecordRow | null> {
  const [row] = await db.select().from(records).where(eq(records.id, id)).limit(1);
  return row ?? null;
}

/** A live record of `category` the request's reader may read, with the reader; a 404 for anything else. */
export async function readableRecord(db: Db, request: FastifyRequest, category: CategoryDef, rawId: string) {
  if (!isUuid(rawId)) throw httpError.notFound();
  const row = await findRecordRow(db, rawId.toLowerCase());
  const actor = await request.getActor();
  if (!row || row.deletedAt || row.category !== category.slug) throw httpError.notFound();
  if (!row.public && !can.readPrivate(actor)) throw httpError.notFound();
  return { row, actor };
}
