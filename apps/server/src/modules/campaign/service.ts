import { createHash, createHmac, randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { ContentChange } from '../../plugins/services';
import type { AuditService } from '../../services/audit';
import type { JobQueue } from '../../services/jobs';
import type { MailService } from '../../services/mail';
import type { ReportDto } from '@app/shared';
import type { Db } from '../../db';
import { campaignMessages, representatives } from '../../db/schema';
import { AppError, httpError } from '../../errors';
import { CAMPAIGN_COUNTRIES, COUNTRY_CODES, type CountryCode } from './directory';
import { confirmationMail, letterToRepresentative, type LetterParts } from './letters';
import { assertTransition, IllegalTransitionError, type CampaignState } from './states';
import { normaliseForHash, type Submission } from './submission';

const CONFIRM_WITHIN_DAYS = 7;
/** Per sender e-mail and per IP address. */
export const HOURLY_LIMIT = 3;
/** Serialises the limit check and the insert of campaign letters (pg_advisory_xact_lock key). */
const SUBMIT_LOCK_KEY = 7_301_779;
/** Letters one representative may receive per day from everyone together: a flood guard, far above normal use. */
export const REPRESENTATIVE_DAILY_LIMIT = 50;
export const SEND_JOB = 'campaign.send';
export const SEND_ATTEMPTS = 3;

const HOUR = 3600_000;
const DAY = 24 * HOUR;

type MessageRow = typeof campaignMessages.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** The sender's personal fields: what scrubbing clears (the token hash stays until scrubbing, so an old link gets a clear answer). */
const PERSONAL_DATA_CLEARED = {
  email: null,
  firstName: null,
  lastName: null,
  city: null,
  streetName: null,
  zipcode: null,
  ipHash: null,
} as const;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function countryCodeOf(value: string): CountryCode | null {
  const v = value.trim().toLowerCase();
  return COUNTRY_CODES.find((code) => code.toLowerCase() === v || CAMPAIGN_COUNTRIES[code].toLowerCase() === v) ?? null;
}

const NO_EMAIL_NOTE = 'No public e-mail address is known for this representative, so a letter cannot be sent from this site.';
const UNREACHABLE_NOTE = 'Letters to this representative cannot be delivered at the moment; please choose another representative.';

/** Whether a representative can be written to, and the note the form shows when not. */
export function availability(rep: { email: string | null; unreachable: boolean; note: string | null }) {
  if (rep.unreachable) return { available: false, note: rep.note ?? UNREACHABLE_NOTE };
  if (!rep.email) return { available: false, note: rep.note ?? NO_EMAIL_NOTE };
  return { available: true, note: rep.note };
}

/**
 * The campaign's message flow: submit (awaiting confirmation, e-mail to the sender), confirm (queue the send job),
 * send (e-mail to the representative), expire unconfirmed letters, and scrub personal data after sending.
 */
/** What the campaign uses: the database, the audit log, mail, the job queue, and the one content-changed event. */
interface CampaignServices {
  db: Db;
  config: Pick<Config, 'jwtSecret' | 'SITE_NAME' | 'publicUrl' | 'CAMPAIGN_SCRUB_DAYS'>;
  audit: AuditService;
  mail: MailService;
  jobs: JobQueue;
  log: Pick<FastifyBaseLogger, 'error'>;
  contentChanged: (change: ContentChange) => void;
}

export class CampaignService {
  private readonly ipKey: Buffer;
  private readonly db: Db;

  constructor(private readonly services: CampaignServices) {
    this.db = services.db;
    // Salt for IP hashes, derived from the site secret so it is stable across restarts and processes.
    this.ipKey = createHmac('sha256', services.config.jwtSecret).update('campaign-ip-salt').digest();
  }

  hashIp(ip: string): string {
    return createHmac('sha256', this.ipKey).update(ip).digest('hex');
  }

  /** Moves one message from `from` to `to`, refusing illegal or concurrent transitions, and records it in the audit log. */
  async transition(tx: Tx, id: string, from: string, to: CampaignState, patch: Partial<typeof campaignMessages.$inferInsert> = {}) {
    assertTransition(from, to);
    const [row] = await tx
      .update(campaignMessages)
      .set({ ...patch, state: to })
      .where(and(eq(campaignMessages.id, id), eq(campaignMessages.state, from)))
      .returning();
    if (!row) {
      const [current] = await tx.select({ state: campaignMessages.state }).from(campaignMessages).where(eq(campaignMessages.id, id));
      throw new IllegalTransitionError(current?.state ?? 'missing', to);
    }
    // No personal data in the log: the subject names the message, the change names the states.
    await this.services.audit.append({ actor: null, action: `campaign.${to}`, subject: `campaign:${id}`, changes: { state: { before: from, after: to } } }, tx);
    return row;
  }

  async submit(input: Submission, ip: string) {
    const country = countryCodeOf(input.country);
    if (!country) throw httpError.badRequest({ country: 'Choose Canada or Australia' });
    const [rep] = await this.db
      .select()
      .from(representatives)
      .where(and(eq(representatives.country, country), eq(representatives.province, input.province), eq(representatives.district, input.district)));
    if (!rep) {
      const [province] = await this.db
        .select({ id: representatives.id })
        .from(representatives)
        .where(and(eq(representatives.country, country), eq(representatives.province, input.province)))
        .limit(1);
      if (!province) throw httpError.badRequest({ province: 'Choose a province or state from the list' });
      throw httpError.badRequest({ district: 'Choose a district from the list' });
    }
    const { available, note } = availability(rep);
    if (!available || !rep.email) throw httpError.badRequest({ district: note ?? NO_EMAIL_NOTE });

    const ipHash = this.hashIp(ip);
    const messageHash = createHash('sha256').update(normaliseForHash(input.message)).digest('hex');
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const row = await this.db.transaction(async (tx) => {
      // Letters sent at the same moment each counted the stored ones before any was stored, so ten at once from one
      // sender all passed the limit of three (PostgreSQL suite). Check and insert hold one lock: letters are few.
      await tx.execute(sql`select pg_advisory_xact_lock(${SUBMIT_LOCK_KEY})`);
      await this.checkLimits(tx, { email: input.email, ipHash, messageHash, representativeId: rep.id, representativeName: rep.name });
      const [inserted] = await tx
        .insert(campaignMessages)
        .values({
          state: 'awaiting_confirmation',
          representativeId: rep.id,
          representativeName: rep.name,
          country,
          province: rep.province,
          district: rep.district,
          authorityEmail: rep.email!,
          message: input.message,
          messageHash,
          email: input.email,
          firstName: input.firstName,
          lastName: input.lastName,
          city: input.city,
          streetName: input.streetName,
          zipcode: input.zipcode,
          ipHash,
          confirmTokenHash: hashToken(token),
          createdAt: now,
          expiresAt: new Date(now.getTime() + CONFIRM_WITHIN_DAYS * DAY),
        })
        .returning();
      await this.services.audit.append(
        { actor: null, action: 'campaign.submitted', subject: `campaign:${inserted!.id}`, changes: { state: { before: null, after: 'awaiting_confirmation' } } },
        tx,
      );
      return inserted!;
    });

    const mail = confirmationMail(this.letterParts(row), `${this.services.config.publicUrl}/campaign/confirm/${token}`, { name: this.services.config.SITE_NAME }, CONFIRM_WITHIN_DAYS);
    try {
      await this.services.mail.send({ to: input.email, ...mail });
    } catch (err) {
      this.services.log.error({ err, campaignMessage: row.id }, 'campaign: confirmation e-mail failed');
      await this.db.transaction((tx) =>
        this.transition(tx, row.id, 'awaiting_confirmation', 'failed', { failedReason: 'The confirmation e-mail could not be sent', ...PERSONAL_DATA_CLEARED, scrubbedAt: new Date() }),
      );
      throw httpError.unavailable('We could not send the confirmation e-mail; please try again later');
    }
    return row;
  }

  /** Rate limits and duplicate refusal, counted from stored messages so they hold across processes. */
  private async checkLimits(db: Tx, p: { email: string; ipHash: string; messageHash: string; representativeId: string; representativeName: string }) {
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

  private letterParts(row: MessageRow): LetterParts {
    return {
      representativeName: row.representativeName,
      body: row.message,
      sender: {
        firstName: row.firstName ?? '',
        lastName: row.lastName ?? '',
        email: row.email ?? '',
        streetName: row.streetName ?? '',
        city: row.city ?? '',
        zipcode: row.zipcode ?? '',
        province: row.province,
        countryName: CAMPAIGN_COUNTRIES[row.country as CountryCode] ?? row.country,
      },
    };
  }

  async findByToken(token: string): Promise<MessageRow | null> {
    if (!/^[\w-]{20,100}$/.test(token)) return null;
    const [row] = await this.db.select().from(campaignMessages).where(eq(campaignMessages.confirmTokenHash, hashToken(token)));
    return row ?? null;
  }

  /** Confirms by token and queues the send job in the same transaction. Repeating a confirmation is harmless. */
  async confirm(token: string): Promise<MessageRow> {
    const row = await this.findByToken(token);
    if (!row) throw httpError.notFound('This link is not valid, or the letter was deleted');
    if (row.state === 'awaiting_confirmation' && row.expiresAt.getTime() <= Date.now()) {
      await this.expireOne(row.id);
      throw new AppError(410, { message: `This link has expired: letters must be confirmed within ${CONFIRM_WITHIN_DAYS} days` });
    }
    if (row.state === 'expired') throw new AppError(410, { message: 'This letter was not confirmed in time and has been deleted' });
    if (row.state !== 'awaiting_confirmation') return row;
    return this.db.transaction(async (tx) => {
      const confirmed = await this.transition(tx, row.id, 'awaiting_confirmation', 'confirmed', { confirmedAt: new Date() });
      await this.services.jobs.enqueue(SEND_JOB, { id: row.id }, { maxAttempts: SEND_ATTEMPTS }, tx);
      return confirmed;
    });
  }

  /** The send job: delivers a confirmed letter from the site's address with the sender as Reply-To. */
  async deliver(id: string, attempt: number): Promise<void> {
    const [row] = await this.db.select().from(campaignMessages).where(eq(campaignMessages.id, id));
    if (!row || row.state !== 'confirmed') return;
    const [rep] = row.representativeId ? await this.db.select().from(representatives).where(eq(representatives.id, row.representativeId)) : [];
    if (!rep || !availability(rep).available || !rep.email || !row.email) {
      await this.fail(row.id, 'The representative has no usable e-mail address');
      return;
    }
    const letter = letterToRepresentative(this.letterParts(row), { name: this.services.config.SITE_NAME, url: this.services.config.publicUrl });
    try {
      await this.services.mail.send({ to: rep.email, replyTo: row.email, ...letter });
    } catch (err) {
      if (attempt < SEND_ATTEMPTS) throw err; // the queue retries with back-off
      await this.fail(row.id, `Delivery failed: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500));
      return;
    }
    await this.db.transaction((tx) => this.transition(tx, row.id, 'confirmed', 'sent', { sentAt: new Date(), authorityEmail: rep.email! }));
    // The letter now appears on the public /reports list (and nowhere else).
    this.services.contentChanged({ area: 'reports' });
  }

  private async fail(id: string, reason: string) {
    await this.db.transaction((tx) => this.transition(tx, id, 'confirmed', 'failed', { failedReason: reason }));
  }

  private async expireOne(id: string): Promise<boolean> {
    try {
      await this.db.transaction((tx) =>
        this.transition(tx, id, 'awaiting_confirmation', 'expired', { ...PERSONAL_DATA_CLEARED, scrubbedAt: new Date() }),
      );
      return true;
    } catch (err) {
      if (err instanceof IllegalTransitionError) return false; // confirmed or expired meanwhile (another process)
      throw err;
    }
  }

  /** Expires letters not confirmed in time; their personal data goes at once, since they will never be sent. */
  async expireUnconfirmed(now = new Date()): Promise<number> {
    const due = await this.db
      .select({ id: campaignMessages.id })
      .from(campaignMessages)
      .where(and(eq(campaignMessages.state, 'awaiting_confirmation'), lte(campaignMessages.expiresAt, now)))
      .orderBy(asc(campaignMessages.expiresAt))
      .limit(1000);
    let count = 0;
    for (const { id } of due) if (await this.expireOne(id)) count++;
    return count;
  }

  /**
   * Clears the sender's name, e-mail, address and IP hash from letters sent (or failed) more than CAMPAIGN_SCRUB_DAYS
   * ago, keeping the letter body and the representative for the public reports.
   */
  async scrubPersonalData(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.services.config.CAMPAIGN_SCRUB_DAYS * DAY);
    const due = await this.db
      .select({ id: campaignMessages.id })
      .from(campaignMessages)
      .where(
        and(
          isNull(campaignMessages.scrubbedAt),
          or(
            and(eq(campaignMessages.state, 'sent'), lte(campaignMessages.sentAt, before)),
            and(eq(campaignMessages.state, 'failed'), lte(campaignMessages.createdAt, before)),
          ),
        ),
      )
      .limit(1000);
    for (const { id } of due) {
      await this.db.transaction(async (tx) => {
        await tx.update(campaignMessages).set({ ...PERSONAL_DATA_CLEARED, confirmTokenHash: null, scrubbedAt: new Date() }).where(eq(campaignMessages.id, id));
        await this.services.audit.append({ actor: null, action: 'campaign.scrubbed', subject: `campaign:${id}`, changes: {} }, tx);
      });
    }
    return due.length;
  }

  async maintain(now = new Date()) {
    return { expired: await this.expireUnconfirmed(now), scrubbed: await this.scrubPersonalData(now) };
  }

  /** Delivered letters for /reports, newest first; only the body, never the sender. */
  async listReports(limit: number, offset: number) {
    const where = eq(campaignMessages.state, 'sent');
    const [rows, [count]] = await Promise.all([
      this.db
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
      this.db.select({ n: sql<number>`count(*)::int` }).from(campaignMessages).where(where),
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
}
