import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE } from '@app/shared';
import { ConfigError, loadConfig } from '../src/config';
import { searchLimiterOf } from '../src/modules/collection/limiter';
import { call, createTestApp, createUser, type TestApp } from './helpers';

/**
 * At most SEARCH_CONCURRENCY searches are computed at once; more wait up to SEARCH_QUEUE_MS, then get 503 with
 * Retry-After, while cached answers and record pages are answered as usual. Records here are invented test data.
 */
describe('search: searches at once', () => {
  let t: TestApp;
  let recordId: string;

  beforeAll(async () => {
    t = await createTestApp({ SEARCH_CONCURRENCY: '1', SEARCH_QUEUE_MS: '1000' });
    const admin = await createUser(t.app, 'admin');
    const res = await call(t.app, {
      method: 'POST',
      url: `${API_BASE}/victims`,
      headers: admin.auth,
      payload: { title: 'Invented victim (test data)', description: 'Test data, not a real record. guardword' },
    });
    expect(res.status).toBe(201);
    recordId = res.body._id;
  }, 120_000);
  afterAll(async () => t?.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('reads its limits from the configuration, refusing bad values by name', () => {
    const base = { NODE_ENV: 'test', DATA_DIR: t.dataDir, JWT_SECRET: 'x'.repeat(40) };
    expect(loadConfig(base).SEARCH_QUEUE_MS).toBe(1000);
    expect(searchLimiterOf(t.config)).toMatchObject({ concurrency: 1, waitMs: 1000 });
    // Unset: one search more than the CPUs, so that one search's work in this process overlaps the others' queries.
    expect(searchLimiterOf(loadConfig(base))).toMatchObject({ concurrency: availableParallelism() + 1, waitMs: 1000 });
    for (const [name, value] of [['SEARCH_CONCURRENCY', '0'], ['SEARCH_CONCURRENCY', 'many'], ['SEARCH_QUEUE_MS', '-5']]) {
      expect(() => loadConfig({ ...base, [name!]: value }), `${name}=${value}`).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, [name!]: value })).toThrow(name);
    }
  });

  it('while every turn is taken, a search waits, then is refused with 503 and Retry-After', async () => {
    const release = (await searchLimiterOf(t.config).acquire())!;
    try {
      const started = Date.now();
      const res = await get(`${API_BASE}/search?q=guardword&limit=3`);
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json().message).toMatch(/too many searches/i);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      // Statistics with words are a search; without, they read record_stats and are not limited.
      expect((await get(`${API_BASE}/statistics?q=guardword`)).statusCode).toBe(503);
      expect((await get(`${API_BASE}/statistics?region=amhara`)).statusCode).toBe(200);
    } finally {
      release();
    }
  });

  it('cached answers and record pages are answered while searches wait; a waiting search runs when a turn frees', async () => {
    const cached = `${API_BASE}/search?q=guardword`;
    expect((await get(cached)).statusCode).toBe(200);
    const release = (await searchLimiterOf(t.config).acquire())!;
    const order: string[] = [];
    const waiting = get(`${API_BASE}/search?q=guardword&limit=2`).then((res) => {
      order.push('search');
      return res;
    });
    const others = await Promise.all([get(cached), get(`${API_BASE}/victims/${recordId}`), get(`${API_BASE}/victims`)]);
    order.push('others');
    expect(others.map((res) => res.statusCode)).toEqual([200, 200, 200]);
    expect(searchLimiterOf(t.config).load).toEqual({ running: 1, waiting: 1 });
    release();
    const searched = await waiting;
    expect(searched.statusCode).toBe(200);
    expect(searched.json().total).toBe(1);
    expect(order).toEqual(['others', 'search']);
    expect(searchLimiterOf(t.config).load).toEqual({ running: 0, waiting: 0 });
  });
});
