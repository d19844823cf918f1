import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { ContentChange } from '../src/plugins/services';
import { API_BASE } from '@app/shared';
import { call, createTestApp, type TestApp } from './helpers';
import { startTcpProxy } from './tcp-proxy';

/**
 * A site started while Redis is away (issue 42 item 2): it starts degraded with one warning naming REDIS_URL (never
 * its password), and uses Redis once it comes. Redis is the machine's own (REDIS_URL or 127.0.0.1:6379), behind a
 * relay the test holds closed, so the shared Redis stays up for everyone else.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const target = new URL(REDIS_URL);
const redisAnswers = await new Promise<boolean>((resolve) => {
  const socket = net.connect(Number(target.port || 6379), target.hostname);
  const done = (answers: boolean) => {
    socket.destroy();
    resolve(answers);
  };
  socket.once('connect', () => done(true));
  socket.once('error', () => done(false));
  socket.setTimeout(5000, () => done(false));
});

function keptLines() {
  const lines: { level: number; msg: string }[] = [];
  return { lines, logger: { level: 'warn', stream: { write: (line: string) => void lines.push(JSON.parse(line)) } } };
}

describe.skipIf(!redisAnswers)(`starting while Redis is unreachable${redisAnswers ? '' : ` (skipped: no Redis at ${target.host})`}`, () => {
  const apps: TestApp[] = [];
  const relays: Awaited<ReturnType<typeof startTcpProxy>>[] = [];
  afterAll(async () => {
    for (const t of apps) await t.close();
    for (const relay of relays) await relay.close();
  });

  it('starts, warns once naming REDIS_URL without its password, and answers reads; /ready names redis', async () => {
    const relay = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    relays.push(relay);
    await relay.cut();
    const { lines, logger } = keptLines();
    const t = await createTestApp({ REDIS_URL: `redis://default:hunter2-password@127.0.0.1:${relay.port}` }, { logger });
    apps.push(t);
    expect((await call(t.app, { method: 'GET', url: `${API_BASE}/victims` })).status).toBe(200);
    const ready = await call(t.app, { method: 'GET', url: '/ready' });
    expect(ready.status).toBe(503);
    expect(ready.body.failed).toEqual(['redis', 'cacheSubscriber']);
    const redisWarnings = lines.filter((l) => /REDIS_URL/.test(l.msg));
    expect(redisWarnings.map((l) => l.msg)).toEqual([expect.stringMatching(/^REDIS_URL: Redis at redis:\/\/default:\*\*\*@127\.0\.0\.1:\d+ is unreachable .*starting without it/)]);
    expect(JSON.stringify(lines)).not.toContain('hunter2-password');
  });

  it('connects when Redis comes: /ready turns 200 and changes published by other processes arrive', async () => {
    const relay = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    relays.push(relay);
    await relay.cut();
    const prefix = `redis-start-${randomUUID().slice(0, 8)}:`;
    const { lines, logger } = keptLines();
    const t = await createTestApp({ REDIS_URL: `redis://127.0.0.1:${relay.port}`, RATE_LIMIT_PREFIX: prefix }, { logger });
    apps.push(t);
    const changes: ContentChange[] = [];
    t.app.onContentChanged((change) => void changes.push(change));

    await relay.restore();
    await expect.poll(async () => (await call(t.app, { method: 'GET', url: '/ready' })).status, { timeout: 60_000, interval: 200 }).toBe(200);
    expect(lines.some((l) => /Redis reachable again/.test(l.msg))).toBe(true);

    const publisher = new Redis(REDIS_URL, { maxRetriesPerRequest: 2 });
    try {
      // The subscription is made once Redis comes; published until it has been (a publish reaches subscribers only).
      await expect
        .poll(
          async () => {
            await publisher.publish(`${prefix}public_cache_invalidate`, `another-process records ${randomUUID()}`);
            return changes.filter((c) => c.elsewhere).length;
          },
          { timeout: 60_000, interval: 250 },
        )
        .toBeGreaterThan(0);
    } finally {
      publisher.disconnect();
    }
  });
});
