import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE } from '@app/shared';
import { makeEntry } from '../src/modules/cache/cached-entry';
import { ResponseCache } from '../src/modules/cache/response-cache';
import { call, createTestApp, createUser, type TestApp } from './helpers';

/** Query strings cannot fill the public cache or get past it: entries are keyed by the parameters that matter. */
describe('public cache keys', () => {
  let t: TestApp;
  let recordId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await createUser(t.app, 'admin');
    const res = await call(t.app, {
      method: 'POST',
      url: `${API_BASE}/massacres`,
      headers: admin.auth,
      payload: { title: 'Sample cache-key massacre (test data)', description: 'Test record, not real data.', caseNum: 'TEST-1', quantity: '1' },
    });
    expect(res.status).toBe(201);
    recordId = res.body._id;
  });
  afterAll(async () => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
  const entries = () => t.app.publicCache.stats().entries;

  it('1,000 requests with random unknown parameters add no entry and are answered from the cache', async () => {
    const first = await get(`${API_BASE}/massacres?limit=5`);
    expect(first.statusCode).toBe(200);
    const before = { entries: entries(), hits: t.app.publicCache.stats().hits };
    for (let i = 0; i < 1000; i++) {
      const junk = randomBytes(6).toString('hex');
      const url = `${API_BASE}/massacres?${i % 2 ? `_b=${junk}&limit=5` : `limit=5&utm_${junk}=${i}&_=${junk}`}`;
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(first.body);
    }
    expect(entries()).toBe(before.entries);
    expect(t.app.publicCache.stats().hits - before.hits).toBeGreaterThanOrEqual(1000);
  });

  it('a URL spelled otherwise than its key is answered by the first hook after its first answer', async () => {
    // The address as a browser writes a form: spaces as +, parameters in the form's order, not the key's.
    const url = `${API_BASE}/search?region=afar&q=cache+key+massacre`;
    expect(t.app.publicCache.answersBeforeRouting(url)).toBe(false);
    const first = await get(url);
    expect(first.statusCode).toBe(200);
    const before = t.app.publicCache.stats();
    expect(before.aliasBytes).toBeGreaterThan(0);
    expect(t.app.publicCache.answersBeforeRouting(url)).toBe(true);
    const second = await get(url);
    expect(second.body).toBe(first.body);
    const after = t.app.publicCache.stats();
    expect(after.entries).toBe(before.entries);
    expect(after.hits).toBe(before.hits + 1);
    // A thousand random spellings keep the aliases within their bound (a sixteenth of the cache's bytes).
    for (let i = 0; i < 1000; i++) await get(`${url}&_b=${randomBytes(6).toString('hex')}`);
    expect(t.app.publicCache.stats().aliasBytes).toBeLessThanOrEqual((t.config.CACHE_MAX_MB * 1024 * 1024) / 16);
    expect(t.app.publicCache.stats().entries).toBe(before.entries);
  });

  it('a record read with parameters it does not take is the same entry', async () => {
    const url = `${API_BASE}/massacres/${recordId}`;
    const first = await get(url);
    expect(first.statusCode).toBe(200);
    const before = entries();
    for (let i = 0; i < 100; i++) expect((await get(`${url}?_b=${randomBytes(4).toString('hex')}&limit=${i}`)).body).toBe(first.body);
    expect(entries()).toBe(before);
  });

  it('parameter order and spelling do not make new entries', async () => {
    await get(`${API_BASE}/massacres?limit=3&offset=0`);
    const after = entries();
    for (const url of [`${API_BASE}/massacres?offset=0&limit=3`, `${API_BASE}/massacres?limit=003&offset=00`, `${API_BASE}/massacres?offset=0&x=1&limit=3`]) {
      expect((await get(url)).statusCode).toBe(200);
    }
    expect(entries()).toBe(after);
  });

  it('a page shared with tracking parameters is the same entry as the page; its own parameters still count', async () => {
    await get('/massacres');
    const after = entries();
    expect((await get('/massacres?utm_source=telegram&fbclid=abc')).statusCode).toBe(200);
    expect(entries()).toBe(after);
    expect((await get('/massacres?view=table')).statusCode).toBe(200);
    expect(entries()).toBe(after + 1);
  });

  it('reports: limit and offset with their defaults decide the entry', async () => {
    await get(`${API_BASE}/reports`);
    const after = entries();
    for (const url of [`${API_BASE}/reports?offset=0`, `${API_BASE}/reports?_b=1`, `${API_BASE}/reports?limit=50`]) {
      expect((await get(url)).statusCode).toBe(200);
    }
    expect(entries()).toBe(after);
  });
});

describe('cached bodies', () => {
  it('own exactly their bytes, so the cache counts the memory it holds', () => {
    for (const body of ['{"a":1}'.repeat(3000), 'short body, but over the compression threshold: '.repeat(12), Buffer.alloc(40_000, 'x')]) {
      const cache = new ResponseCache(1_000_000);
      cache.set('/plain', makeEntry({ status: 200, headers: {}, body }), cache.currentGeneration());
      const plain = cache.get('/plain')!.identity! as Buffer;
      expect(Buffer.isBuffer(plain)).toBe(true);
      cache.set('/compressed', makeEntry({ status: 200, headers: {}, body }), cache.currentGeneration());
      const br = cache.bodyOf('/compressed', cache.get('/compressed')!, 'gzip, deflate, br');
      const gzip = cache.bodyOf('/compressed', cache.get('/compressed')!, 'gzip');
      expect([br.encoding, gzip.encoding]).toEqual(['br', 'gzip']);
      const stored = cache.get('/compressed')!;
      expect(stored.identity).toBeNull();
      for (const part of [plain, stored.encoded.gzip, stored.encoded.br]) {
        expect(part).toBeDefined();
        // A view of a larger allocation (zlib's 16 KB chunks, Buffer's 8 KB slabs) would keep all of it alive.
        expect(part!.buffer.byteLength).toBe(part!.length);
      }
    }
  });
});
