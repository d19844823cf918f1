import { desc, eq, sql } from 'drizzle-orm';
import type { ReportDto } from '@app/shared';
import type { Db } from '../../db';
import { campaignMessages } from '../../db/schema';

/** Delivered letters for /reports, newest first; only the body, never the sender. */
export async function listReports(db: Db, limit: number, offset: number) {
  const where = eq(campaignMessages.state, 'sent');
  const [rows, [count]] = await Promise.all([
    db
      .select({
        id: campaignMessages.id,
        representativeName: campaignMessages.representativeName,
        district: campaignMessages.district,
        message: campaignMessages.message,
        sentAt: campaignMessages.sentAt,
      })
      .from(campaignMessages)
      .where(where)
      .orderBy(desc(campaignMessages.sentAt), desc(campaignMessages.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: sql<number>`count(*)::int` }).from(campaignMessages).where(where),
  ]);
  return {
    total: count?.n ?? 0,
    items: rows.map((r): ReportDto => ({
      _id: r.id,
      title: `Letter to ${r.representativeName}, ${r.district}`,
      message: r.message,
      createdAt: (r.sentAt ?? new Date(0)).toISOString(),
    })),
  };
}
