import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { sessions, type SessionRow } from '../db/schema';
import type { JwtService } from './jwt';

/** A session's last-seen time is written at most this often (a write per request would double a read's cost). */
export const LAST_SEEN_EVERY_MS = 60_000;

/** What a session is started from: the client's browser and address (only its first three parts are kept). */
export interface SessionOrigin {
  userAgent?: string;
  ip?: string;
}

/**
 * The first three octets of an IPv4 address (three groups of an IPv6 one): enough for the owner to recognise a
 * session, not enough to locate a person.
 */
export function addressPrefix(ip: string | undefined): string {
  if (!ip) return '';
  const v4 = ip.replace(/^::ffff:/, '');
  if (/^\d+\.\d+\.\d+\.\d+$/.test(v4)) return v4.split('.').slice(0, 3).join('.');
  return ip.split(':').slice(0, 3).join(':');
}

/** A short name of the browser from its user agent, for the sessions list. */
export function browserName(userAgent: string): string {
  const known: [RegExp, string][] = [
    [/Edg\//, 'Edge'],
    [/Firefox\//, 'Firefox'],
    [/Chrom(e|ium)\//, 'Chromium'],
    [/Safari\//, 'Safari'],
    [/curl\//, 'curl'],
  ];
  const hit = known.find(([pattern]) => pattern.test(userAgent));
  return hit ? hit[1] : userAgent.slice(0, 60) || 'Unknown';
}

/** Starts, lists and ends sessions. Whether a session still holds is decided per request in plugins/auth.ts. */
export class SessionService {
  constructor(
    private readonly db: Db,
    private readonly jwt: Pick<JwtService, 'sign'>,
    private readonly lifetimeMs: number,
  ) {}

  /** A new session of `user` and its token. */
  async start(
    user: { id: string; role: string; firstName: string; lastName: string; tokenVersion: number },
    origin: SessionOrigin = {},
  ): Promise<{ token: string; sid: string }> {
    const [row] = await this.db
      .insert(sessions)
      .values({
        userId: user.id,
        userAgent: (origin.userAgent ?? '').slice(0, 400),
        addressPrefix: addressPrefix(origin.ip),
        expiresAt: new Date(Date.now() + this.lifetimeMs),
      })
      .returning({ id: sessions.id });
    return { token: await this.jwt.sign(user, row!.id), sid: row!.id };
  }

  /** The account's live sessions, newest first. */
  list(userId: string): Promise<SessionRow[]> {
    return this.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)))
      .orderBy(desc(sessions.createdAt));
  }

  /** Ends one session of the account; false when it has no such live session. */
  async revoke(userId: string, sid: string): Promise<boolean> {
    const ended = await this.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.id, sid), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    return ended.length > 0;
  }

  /** Ends every live session of the account but `keep` (none kept when it is undefined); how many ended. */
  async revokeOthers(userId: string, keep?: string, db: Pick<Db, 'update'> = this.db): Promise<number> {
    const where = keep
      ? and(eq(sessions.userId, userId), isNull(sessions.revokedAt), ne(sessions.id, keep))
      : and(eq(sessions.userId, userId), isNull(sessions.revokedAt));
    const ended = await db.update(sessions).set({ revokedAt: new Date() }).where(where).returning({ id: sessions.id });
    return ended.length;
  }

  /** Records that the session proved a factor or the password just now (step-up). */
  async markVerified(sid: string): Promise<void> {
    await this.db.update(sessions).set({ verifiedAt: new Date() }).where(eq(sessions.id, sid));
  }

  /** Writes the session's last-seen time (called at most every LAST_SEEN_EVERY_MS per session). */
  async touch(sid: string): Promise<void> {
    await this.db.update(sessions).set({ lastSeenAt: new Date() }).where(eq(sessions.id, sid));
  }
}
