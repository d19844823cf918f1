import { desc, eq, sql, type SQL } from 'drizzle-orm';
import { can, type AccessLogEntry, type Actor, type Source } from '@app/shared';
import type { Db } from '../../db';
import { accessLog, records, users, type AccessLogRow } from '../../db/schema';
import { csvRows } from '../export/csv';

/** What a read showed an account that the public is not shown, or null when it showed nothing of the kind. */
export function privateKindOf(actor: Actor, record: { public: boolean; userId: string | null; sources: Source[] }): 'private' | 'withheld' | null {
  if (!record.public) return 'private';
  return record.sources.some((source) => source.withheld && can.readWithheld(actor, record, source)) ? 'withheld' : null;
}

/** Writes an entry when the record read was private, or its withheld testimony was shown to `actor`. */
export async function noteRecordRead(db: Db, actor: Actor, recordId: string): Promise<boolean> {
  const [record] = await db
    .select({ id: records.id, category: records.category, public: records.public, userId: records.userId, sources: records.sources })
    .from(records)
    .where(eq(records.id, recordId))
    .limit(1);
  const kind = record ? privateKindOf(actor, record) : null;
  if (!record || !kind) return false;
  await db.insert(accessLog).values({ userId: actor.id, sessionId: actor.sid ?? null, recordId, category: record.category, kind });
  return true;
}

/** Entries newest first, of one account when `userId` is given. */
export async function listAccessLog(db: Db, options: { userId?: string; limit: number; offset: number }): Promise<AccessLogEntry[]> {
  const where: SQL | undefined = options.userId ? eq(accessLog.userId, options.userId) : undefined;
  const rows = await db
    .select({ entry: accessLog, firstName: users.firstName, lastName: users.lastName })
    .from(accessLog)
    .leftJoin(users, eq(users.id, accessLog.userId))
    .where(where)
    .orderBy(desc(accessLog.at), desc(accessLog.id))
    .limit(options.limit)
    .offset(options.offset);
  return rows.map(({ entry, firstName, lastName }) => toEntry(entry, firstName === null ? null : `${firstName} ${lastName ?? ''}`.trim()));
}

function toEntry(row: AccessLogRow, userName: string | null): AccessLogEntry {
  return { at: row.at.toISOString(), userId: row.userId, userName, sessionId: row.sessionId, recordId: row.recordId, category: row.category, kind: row.kind };
}

/** CSV of every entry (the admins' export), through the site's one CSV writer (formula cells neutralised). */
export async function accessLogCsv(db: Db): Promise<string> {
  const rows = await listAccessLog(db, { limit: 1_000_000, offset: 0 });
  const head = ['at', 'user_id', 'user_name', 'session_id', 'record_id', 'category', 'kind'];
  return csvRows([head, ...rows.map((r) => [r.at, r.userId, r.userName, r.sessionId, r.recordId, r.category, r.kind])]);
}

export const countAccessLog = async (db: Db) => Number((await db.select({ n: sql<number>`count(*)` }).from(accessLog))[0]?.n ?? 0);
