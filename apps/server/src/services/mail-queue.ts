import { count, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db';
import { mailQueue } from '../db/schema';
import type { JobQueue } from './jobs';
import { mailErrorOf, type MailMessage, type MailService } from './mail';

export const MAIL_RETRY_JOB = 'mail.retry';
/** Retries after the first try: with the back-off below, about ten hours of an SMTP server being down. */
export const MAIL_RETRIES = 15;

/** The wait after `failedTries` tries: 1, 2, 4... minutes, at most an hour. */
export const mailRetryDelay = (failedTries: number) => Math.min(60_000 * 2 ** (failedTries - 1), 3600_000);

export type MailOutcome = 'sent' | 'queued' | 'refused';

/**
 * Mail that survives a failing SMTP server: each mail is tried at once; one the server did not take for a passing
 * reason (down, 4xx) is stored in `mail_queue` with a `mail.retry` job, so whichever process runs jobs tries it again
 * with back-off, and /ready says mail is failing while any waits. A refusal for good (5xx) is not retried. No log line
 * names a recipient or holds a link: only the queued mail's id and the server's reason, its addresses blanked.
 */
export class MailQueue {
  /** Mails given up (refused for good, or every retry failed) by this process, since start. */
  dropped = 0;

  constructor(
    private readonly db: Db,
    private readonly jobs: JobQueue,
    private readonly mail: Pick<MailService, 'send'>,
    private readonly log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>,
  ) {
    jobs.register(MAIL_RETRY_JOB, (payload, job) => this.retry(String(payload.id), job.attempts), {
      retryDelay: (attempts) => mailRetryDelay(attempts + 1),
    });
  }

  /** Sends `message` now, or keeps it for a retry; throws only when it can be neither sent nor stored. */
  async send(message: MailMessage): Promise<MailOutcome> {
    try {
      await this.mail.send(message);
      return 'sent';
    } catch (err) {
      const error = mailErrorOf(err);
      if (error.permanent) {
        this.dropped++;
        this.log.error({ reason: error.message }, 'mail refused for good by the mail server, not retried');
        return 'refused';
      }
      const id = await this.db.transaction(async (tx) => {
        const [row] = await tx.insert(mailQueue).values({ message, lastError: error.message }).returning({ id: mailQueue.id });
        await this.jobs.enqueue(MAIL_RETRY_JOB, { id: row!.id }, { runAt: new Date(Date.now() + mailRetryDelay(1)), maxAttempts: MAIL_RETRIES }, tx);
        return row!.id;
      });
      this.log.warn({ mailId: id, reason: error.message }, 'mail not sent, queued for a retry');
      return 'queued';
    }
  }

  /** The `mail.retry` job: one more try of a queued mail; a failure is thrown so the job queue backs off. */
  private async retry(id: string, retries: number): Promise<void> {
    const [row] = await this.db.select().from(mailQueue).where(eq(mailQueue.id, id));
    if (!row) return; // sent or given up already
    const tries = row.attempts + 1;
    try {
      await this.mail.send(row.message);
    } catch (err) {
      const error = mailErrorOf(err);
      if (error.permanent || retries >= MAIL_RETRIES) {
        await this.db.delete(mailQueue).where(eq(mailQueue.id, id));
        this.dropped++;
        this.log.error({ mailId: id, tries, reason: error.message }, 'queued mail given up');
        return;
      }
      await this.db.update(mailQueue).set({ attempts: sql`${mailQueue.attempts} + 1`, lastError: error.message }).where(eq(mailQueue.id, id));
      throw error;
    }
    await this.db.delete(mailQueue).where(eq(mailQueue.id, id));
    this.log.info({ mailId: id, tries }, 'queued mail sent');
  }

  /** Mails waiting for a retry, in every process: /ready's mail check and the mail_queued metric. */
  async waiting(): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(mailQueue);
    return Number(row?.n ?? 0);
  }
}
