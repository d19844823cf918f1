import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { SMTPServer } from 'smtp-server';
import { API_BASE } from '@app/shared';
import { jobs, mailQueue } from '../src/db/schema';
import { MAIL_RETRY_JOB } from '../src/services/mail-queue';
import { call, createTestApp, type TestApp } from './helpers';
import { linkToken, nextIp, recordingSmtpServer, uniqueEmail, type ReceivedMail } from './users-mail-helpers';

const PUBLIC_URL = 'https://mail-queue.example.test';

/**
 * A real SMTP peer on 127.0.0.1 that can be down (its port closed), answer 451 (try later) or 550 (never), and come
 * back on the same port: what a mail server does to the site in an outage.
 */
async function flakySmtpPeer() {
  const received: ReceivedMail[] = [];
  let reply: 'accept' | 'tempfail' | 'reject' = 'accept';
  let port = 0;
  let server: SMTPServer | null = null;
  const up = async () => {
    server = recordingSmtpServer(received, () =>
      reply === 'accept'
        ? null
        : Object.assign(new Error(reply === 'tempfail' ? 'Mailbox busy, try later' : 'No such mailbox here'), { responseCode: reply === 'tempfail' ? 451 : 550 }),
    );
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  };
  await up();
  return {
    url: () => `smtp://127.0.0.1:${port}`,
    received,
    to: (address: string) => received.filter((m) => m.to.includes(address.toLowerCase())),
    answer: (next: typeof reply) => void (reply = next),
    down: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())).then(() => void (server = null)),
    up,
  };
}

describe('mail against an SMTP server that fails and recovers', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof flakySmtpPeer>>;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    smtp = await flakySmtpPeer();
    const logger = { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } };
    t = await createTestApp({ SMTP_URL: smtp.url(), PUBLIC_URL }, { logger });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.down();
  });

  const signup = async (email: string) => {
    const res = await call(t.app, { method: 'POST', url: '/api/users/signup', remoteAddress: nextIp(), payload: { firstName: 'Sample', lastName: 'Queue', email, password: 'sample queue passphrase', password2: 'sample queue passphrase' } });
    expect(res.status).toBe(201);
    await t.app.settleAccountWork();
  };
  const ready = async () => call(t.app, { method: 'GET', url: '/ready' });
  const retryJobs = () => t.app.db.select().from(jobs).where(eq(jobs.kind, MAIL_RETRY_JOB));
  /** Time passing: the retries due within the next `ms` become due now (the back-off itself is asserted apart). */
  const advance = (ms: number) => t.app.db.execute(sql`update jobs set run_at = run_at - make_interval(secs => ${ms / 1000}) where kind = ${MAIL_RETRY_JOB} and state = 'queued'`);
  const secondsUntilRetry = async () => {
    const [job] = (await retryJobs()).filter((j) => j.state === 'queued');
    return (job!.runAt.getTime() - Date.now()) / 1000;
  };

  it('queues a mail while the server is down, says so on /ready (200, degraded), and sends it once the server is back', async () => {
    expect((await ready()).body).toMatchObject({ status: 'ok', checks: { mail: 'ok' } });
    await smtp.down();
    const email = uniqueEmail('queued');
    await signup(email);

    const [queued] = await t.app.db.select().from(mailQueue);
    expect(queued!.message.to).toBe(email);
    expect(queued!.lastError).toMatch(/ECONNECTION|ESOCKET|ECONNREFUSED/);
    const during = await ready();
    expect(during.status).toBe(200);
    expect(during.body).toMatchObject({ status: 'degraded', degraded: ['mail'], mailWaiting: 1, checks: { database: 'ok', mail: 'failing' } });
    // The first retry a minute later; one more failure doubles the wait.
    expect(await secondsUntilRetry()).toBeGreaterThan(50);
    expect(await secondsUntilRetry()).toBeLessThanOrEqual(60);
    await advance(60_000);
    expect(await t.app.jobs.drain()).toBe(1);
    expect(await secondsUntilRetry()).toBeGreaterThan(110);
    expect((await t.app.db.select().from(mailQueue))[0]!.attempts).toBe(2);

    await smtp.up();
    await advance(120_000);
    expect(await t.app.jobs.drain()).toBe(1);
    const [delivered] = smtp.to(email);
    expect(linkToken(delivered!.raw, PUBLIC_URL, '/user/activation/')).toMatch(/^[\w-]{20,}$/);
    expect(await t.app.db.select().from(mailQueue)).toEqual([]);
    expect((await ready()).body).toMatchObject({ status: 'ok', checks: { mail: 'ok' } });
    expect((await retryJobs()).map((j) => j.state)).toEqual(['done']);
  });

  it('retries a 451 (try later), gives up a 550 at once, and logs neither the address nor the link', async () => {
    smtp.answer('tempfail');
    const later = uniqueEmail('later');
    await signup(later);
    expect(await t.app.mailQueue.waiting()).toBe(1);
    expect((await t.app.db.select().from(mailQueue))[0]!.lastError).toMatch(/451/);

    smtp.answer('reject');
    const never = uniqueEmail('never');
    await signup(never);
    expect(await t.app.mailQueue.waiting()).toBe(1); // the 550 was not queued
    const droppedBefore = t.app.mailQueue.dropped;

    smtp.answer('accept');
    await advance(60_000);
    expect(await t.app.jobs.drain()).toBe(1);
    expect(smtp.to(later)).toHaveLength(1);
    expect(smtp.to(never)).toHaveLength(0);
    expect(t.app.mailQueue.dropped).toBe(droppedBefore);

    const log = lines.map((line) => JSON.stringify(line)).join('\n');
    expect(log).toContain('mail not sent, queued for a retry');
    expect(log).toContain('mail refused for good');
    expect(log).toContain('queued mail sent');
    expect(log).not.toMatch(/@example\.test/);
    expect(log).not.toContain('/user/activation/');
  });

  it('still takes a campaign letter while mail is down: the confirmation follows when the server is back', async () => {
    await smtp.down();
    const [rep] = (await t.app.database.query(
      "select province, district from representatives where email is not null and not unreachable and country = 'CA' limit 1",
    )) as { province: string; district: string }[];
    const email = uniqueEmail('letter');
    const letter = { ...rep!, country: 'CA', firstName: 'Samplefirst', lastName: 'Testsender', email, city: 'Testville', streetName: '1 Sample Street', zipcode: 'T3S 7T3', message: 'A sample letter for the mail queue test: please raise the documented displacement.' };
    const res = await call(t.app, { method: 'POST', url: `${API_BASE}/reports`, remoteAddress: nextIp(), payload: letter });
    expect(res.status).toBe(201);
    expect((await ready()).body).toMatchObject({ status: 'degraded', degraded: ['mail'] });
    await smtp.up();
    await advance(60_000);
    expect(await t.app.jobs.drain()).toBe(1);
    expect(smtp.to(email)).toHaveLength(1);
    expect(smtp.to(email)[0]!.raw).toMatch(/^Subject: Please confirm your letter/m);
    expect((await ready()).body).toMatchObject({ status: 'ok' });
  });
});
