import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/errors';
import { MemoryCounterStore, RateLimit, RedisCounterStore, assertNotBlocked, type CounterStore } from '../src/modules/users/rate-limiter';
import { call, createTestApp, type TestApp } from './helpers';
import { nextIp, uniqueEmail } from './users-mail-helpers';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** CI sets these; locally the Redis tests run when asked for. */
const withRedis = Boolean(process.env.REDIS_URL || process.env.TEST_PG_URL);
const runPrefix = () => `test-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}:`;

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected a rejection');
}

/** The behaviour both stores must have; run once per implementation. */
function storeContract(name: string, makeStore: () => CounterStore) {
  describe(`${name} counter store`, () => {
    it('counts within a window and refuses over the limit with 429 and Retry-After', async () => {
      const limit = new RateLimit(makeStore(), 'contract', { max: 3, windowMs: 60_000 });
      for (let i = 0; i < 3; i++) await limit.consume('subject-a');
      const err = await rejection(limit.consume('subject-a'));
      expect(err).toBeInstanceOf(AppError);
      expect(err.statusCode).toBe(429);
      expect(Number(err.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(err.headers['retry-after'])).toBeLessThanOrEqual(60);
      // Subjects are counted apart.
      await expect(limit.consume('subject-b')).resolves.toBeUndefined();
    });

    it('blocks after max recorded failures without counting the check itself, and resets', async () => {
      const limit = new RateLimit(makeStore(), 'failures', { max: 2, windowMs: 60_000 });
      expect(await limit.blockedFor('x')).toBe(0);
      await limit.record('x');
      expect(await limit.blockedFor('x')).toBe(0);
      await limit.record('x');
      expect(await limit.blockedFor('x')).toBeGreaterThan(0);
      expect((await rejection(assertNotBlocked([[limit, 'x']]))).statusCode).toBe(429);
      await limit.reset('x');
      expect(await limit.blockedFor('x')).toBe(0);
    });

    it('starts again when the window ends', async () => {
      const limit = new RateLimit(makeStore(), 'window', { max: 1, windowMs: 150 });
      await limit.consume('y');
      expect((await rejection(limit.consume('y'))).statusCode).toBe(429);
      await new Promise((r) => setTimeout(r, 200));
      await expect(limit.consume('y')).resolves.toBeUndefined();
    });
  });
}

storeContract('memory', () => new MemoryCounterStore());

describe('memory counter store clock', () => {
  it('uses the configured window length', async () => {
    let now = 1_000_000;
    const store = new MemoryCounterStore(() => now);
    expect(await store.increment('k', 15 * 60_000)).toEqual({ count: 1, resetInMs: 15 * 60_000 });
    now += 14 * 60_000;
    expect(await store.increment('k', 15 * 60_000)).toEqual({ count: 2, resetInMs: 60_000 });
    now += 60_000;
    expect(await store.get('k')).toBeNull();
    expect((await store.increment('k', 15 * 60_000)).count).toBe(1);
  });
});

describe('sign-up limit per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SIGNUP_LIMIT_PER_HOUR: '3' });
  });
  afterAll(async () => t?.close());

  it('follows SIGNUP_LIMIT_PER_HOUR: the sign-up after the configured number is refused with 429 and Retry-After', async () => {
    const signup = (ip: string) => call(t.app, { method: 'POST', url: '/api/users/signup', payload: {}, remoteAddress: ip });
    for (let i = 0; i < 3; i++) expect((await signup('203.0.113.7')).status).toBe(400);
    const refused = await signup('203.0.113.7');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address has its own count.
    expect((await signup('203.0.113.8')).status).toBe(400);
  });
});

describe.runIf(withRedis)('shared through Redis', () => {
  const prefix = runPrefix();
  const connections: Redis[] = [];
  const connect = () => {
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 2 });
    connections.push(redis);
    return redis;
  };
  afterAll(async () => {
    const redis = connect();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await Promise.all(connections.map((c) => c.quit()));
  });

  storeContract('Redis', () => new RedisCounterStore(connect(), prefix));

  it('counts one limit across two connections, as two processes would', async () => {
    const a = new RateLimit(new RedisCounterStore(connect(), prefix), 'two', { max: 4, windowMs: 60_000 });
    const b = new RateLimit(new RedisCounterStore(connect(), prefix), 'two', { max: 4, windowMs: 60_000 });
    await Promise.all([a.consume('z'), b.consume('z'), a.consume('z'), b.consume('z')]);
    expect((await rejection(a.consume('z'))).statusCode).toBe(429);
    expect((await rejection(b.consume('z'))).statusCode).toBe(429);
  });

  describe('two app instances', () => {
    let one: TestApp;
    let two: TestApp;
    const appPrefix = runPrefix();
    beforeAll(async () => {
      one = await createTestApp({ REDIS_URL, RATE_LIMIT_PREFIX: appPrefix });
      two = await createTestApp({ REDIS_URL, RATE_LIMIT_PREFIX: appPrefix });
    });
    afterAll(async () => {
      const keys = await connect().keys(`${appPrefix}*`);
      if (keys.length) await connect().del(...keys);
      await one?.close();
      await two?.close();
    });

    it('enforces one sign-in failure limit across both instances', async () => {
      const email = uniqueEmail('shared');
      const ip = nextIp();
      const signin = (t: TestApp) =>
        call(t.app, { method: 'POST', url: '/api/users/signin', payload: { email, password: 'not the password 1' }, remoteAddress: ip });
      // Five failures from one address spread over the two instances trip the limit of that account and address on both.
      for (const t of [one, two, one, two, one]) expect((await signin(t)).status).toBe(401);
      const blockedTwo = await signin(two);
      expect(blockedTwo.status).toBe(429);
      expect(Number(blockedTwo.headers['retry-after'])).toBeGreaterThan(0);
      expect((await signin(one)).status).toBe(429);
      const keys = await connect().keys(`${appPrefix}users:signinFailuresPerAccountAndIp:*`);
      expect(keys).toEqual([`${appPrefix}users:signinFailuresPerAccountAndIp:${email}|${ip}`]);
    });

    it('enforces one sign-up limit per IP across both instances', async () => {
      const ip = nextIp();
      const signup = (t: TestApp) => call(t.app, { method: 'POST', url: '/api/users/signup', payload: {}, remoteAddress: ip });
      for (let i = 0; i < 10; i++) expect((await signup(i % 2 ? one : two)).status).toBe(400);
      expect((await signup(one)).status).toBe(429);
      expect((await signup(two)).status).toBe(429);
    });
  });
});
