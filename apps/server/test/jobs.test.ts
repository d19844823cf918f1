import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { jobs } from '../src/db/schema';
import { createTestApp, type TestApp } from './helpers';

describe('background jobs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const queued = async (kind: string) =>
    Number((await t.app.db.select({ n: sql<number>`count(*)::int` }).from(jobs).where(and(eq(jobs.kind, kind), eq(jobs.state, 'queued'))))[0]!.n);

  it('stops after the job under way, leaving the others queued for the next start', async () => {
    const ran: string[] = [];
    t.app.jobs.register('test-slow', async (payload) => {
      ran.push(String(payload.n));
      await new Promise((resolve) => setTimeout(resolve, 30));
    });
    for (let n = 0; n < 20; n++) await t.app.jobs.enqueue('test-slow', { n });
    t.app.jobs.start();
    while (ran.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    await t.app.jobs.stop();
    const ranBeforeStop = ran.length;
    expect(ranBeforeStop).toBeLessThanOrEqual(3);
    expect(await queued('test-slow')).toBe(20 - ranBeforeStop);
    // Nothing runs once stopped; a later run takes the rest, each once.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ran.length).toBe(ranBeforeStop);
    expect(await t.app.jobs.drain()).toBe(20 - ranBeforeStop);
    expect(new Set(ran).size).toBe(20);
  });
});
