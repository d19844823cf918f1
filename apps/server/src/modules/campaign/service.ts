import { createHash, createHmac, randomBytes } from 'node:crypto';
import { and, asc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { ContentChange } from '../../plugins/services';
import type { AuditService } from '../../services/audit';
import type { JobQueue } from '../../services/jobs';
import type { MailService } from '../../services/mail';
import type { MailQueue } from '../../services/mail-queue';
import type { Db } from '../../db';
import { campaignMessages, representatives } from '../../db/schema';
import { AppError, httpError } from '../../errors';
import { confirmationMail, letterPartsOf, letterToRepresentative } from './letters';
import { checkLimits, SUBMIT_LOCK_KEY } from './limits';
import { listReports } from './reports';
import { availability, findRepresentative } from './representatives';
import { assertTransition, IllegalTransitionError, type CampaignState } from './states';
import { normaliseForHash, type Submission } from './submission';

const CONFIRM_WITHIN_DAYS = 7;
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

/** What the campaign uses: the database, the audit log, mail, the job queue, and the one content-changed event. */
interface CampaignServices {
  db: Db;
  config: Pick<Config, 'jwtSecret' | 'SITE_NAME' | 'publicUrl' | 'CAMPAIGN_SCRUB_DAYS'>;
  audit: AuditService;
  /** The letter itself: one try per run of its send job, which retries. */
  mail: Pick<MailService, 'send'>;
  /** The confirmation mail: queued for a retry when the mail server fails. */
  mailQueue: Pick<MailQueue, 'send'>;
  jobs: JobQueue;
  log: Pick<FastifyBaseLogger, 'error'>;
  contentChanged: (change: ContentChange) => void;
}

/**
 * The campaign's message flow: submit (awaiting confirmation, e-mail to the sender), confirm (queue the send job),
 * send (e-mail to the representative), expire unconfirmed letters, and scrub personal data after sending. The limits,
 * the representatives and the public reports are in limits.ts, representatives.ts and reports.ts.
 */
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
    const { country, rep } = await findRepresentative(this.db, input);

    const ipHash = this.hashIp(ip);
    const messageHash = createHash('sha256').update(normaliseForHash(input.message)).digest('hex');
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const row = await this.db.transaction(async (tx) => {
      // Letters sent at the same moment each counted the stored ones before any was stored, so ten at once from one
      // sender all passed the limit of three (PostgreSQL suite). Check and insert hold one lock: letters are few.
      await tx.execute(sql`select pg_advisory_xact_lock(${SUBMIT_LOCK_KEY})`);
      await checkLimits(tx, { email: input.email, ipHash, messageHash, representativeId: rep.id, representativeName: rep.name });
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

    const mail = confirmationMail(letterPartsOf(row), `${this.services.config.publicUrl}/campaign/confirm/${token}`, { name: this.services.config.SITE_NAME }, CONFIRM_WITHIN_DAYS);
    // A mail server that is down only delays the confirmation (queued, retried); one that refuses the address for
    // good means the sender will never get the link.
    if ((await this.services.mailQueue.send({ to: input.email, ...mail })) === 'refused') {
      this.services.log.error({ campaignMessage: row.id }, 'campaign: confirmation e-mail refused');
      await this.db.transaction((tx) =>
        this.transition(tx, row.id, 'awaiting_confirmation', 'failed', { failedReason: 'The confirmation e-mail could not be sent', ...PERSONAL_DATA_CLEARED, scrubbedAt: new Date() }),
      );
      throw httpError.unavailable('We could not send the confirmation e-mail; please try again later');
    }
    return row;
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
    const letter = letterToRepresentative(letterPartsOf(row), { name: this.services.config.SITE_NAME, url: this.services.config.publicUrl });
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

  listReports(limit: number, offset: number) {
    return listReports(this.db, limit, offset);
  }

  async maintain(now = new Date()) {
    return { expired: await this.expireUnconfirmed(now), scrubbed: await this.scrubPersonalData(now) };
  }

}
