import { and, eq, gte, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { campaignMessages } from '../../db/schema';
import { httpError } from '../../errors';

/** How many letters a sender, an address and a representative may have: counted from the stored letters. */

/** Per sender e-mail and per IP address. */
export const HOURLY_LIMIT = 3;
/** Serialises the limit check and the insert of campaign letters (pg_advisory_xact_lock key). */
export const SUBMIT_LOCK_KEY = 7_301_779;
/** Letters one representative may receive per day from everyone together: a flood guard, far above normal use. */
export const REPRESENTATIVE_DAILY_LIMIT = 50;

const HOUR = 3600_000;
const DAY = 24 * HOUR;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Rate limits and duplicate refusal, counted from stored messages so they hold across processes. */
export async function checkLimits(db: Tx, p: { email: string; ipHash: string; messageHash: string; representativeId: string; representativeName: string }) {
  const now = Date.now();
  const since = new Date(now - HOUR);
  for (const condition of [eq(campaignMessages.email, p.email), eq(campaignMessages.ipHash, p.ipHash)]) {
    const [window] = await db
      .select({ n: sql<number>`count(*)::int`, oldest: sql<Date | string | null>`min(${campaignMessages.createdAt})` })
      .from(campaignMessages)
      .where(and(condition, gte(campaignMessages.createdAt, since)));
    if (window && window.n >= HOURLY_LIMIT) {
      const oldest = window.oldest ? new Date(window.oldest).getTime() : now;
      throw httpError.tooMany((oldest + HOUR - now) / 1000, `You can send at most ${HOURLY_LIMIT} letters an hour; please try again later`);
    }
  }
  const [duplicate] = await db
    .select({ id: campaignMessages.id })
    .from(campaignMessages)
    .where(
      and(
        eq(campaignMessages.representativeId, p.representativeId),
        eq(campaignMessages.messageHash, p.messageHash),
        inArray(campaignMessages.state, ['awaiting_confirmation', 'confirmed', 'sent']),
        or(eq(campaignMessages.email, p.email), eq(campaignMessages.ipHash, p.ipHash)),
      ),
    )
    .limit(1);
  if (duplicate) throw httpError.badRequest({ message: `You have already written this letter to ${p.representativeName}` });
  const [day] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(campaignMessages)
    .where(and(eq(campaignMessages.representativeId, p.representativeId), gte(campaignMessages.createdAt, new Date(now - DAY))));
  if (day && day.n >= REPRESENTATIVE_DAILY_LIMIT) {
    throw httpError.tooMany(HOUR / 1000, `${p.representativeName} has received many letters today; please try again tomorrow`);
  }
}
