import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db';
import { makeEntry, pickEncoding } from '../src/modules/cache/cached-entry';
import { ResponseCache } from '../src/modules/cache/response-cache';
import { appWithProbe } from './cache-probe';

describe('response cache store', () => {
  it('keeps entries within its byte bound and drops the least recently used', () => {
    const cache = new ResponseCache(20_000);
    for (let i = 0; i < 50; i++) cache.set(`/k${i}`, makeEntry({ status: 200, headers: {}, body: 'z'.repeat(1000) + i }), cache.currentGeneration());
    expect(cache.bytes).toBeLessThanOrEqual(20_000);
    expect(cache.get('/k49')).toBeDefined();
    expect(cache.get('/k0')).toBeUndefined();
  });

  it("counts an entry's objects besides its body, so answers of a few bytes cannot hold many times the bound", () => {
    const cache = new ResponseCache(1_000_000);
    for (let i = 0; i < 10_000; i++) {
      const entry = makeEntry({ status: 200, headers: { etag: `"e${i}"`, 'x-total-count': '0' }, body: '[]' });
      cache.set(`/api/v1.0.0/victims?limit=12&offset=${60_000 + i}`, entry, cache.currentGeneration());
    }
    // Such an entry takes about 3 KB of memory (measured with --expose-gc), so a megabyte holds about 330 of them.
    expect(cache.size).toBeLessThanOrEqual(1_000_000 / 3000);
    expect(cache.size).toBeGreaterThan(200);
    expect(cache.get('/api/v1.0.0/victims?limit=12&offset=69999')).toBeDefined();
  });

  it('compresses a stored body for an encoding when a request first takes it, then keeps only compressed bodies', () => {
    const cache = new ResponseCache(1_000_000);
    const body = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ i, text: `entry ${i}` })));
    cache.set('/e', makeEntry({ status: 200, headers: {}, body }), cache.currentGeneration());
    const identityOnly = cache.bytes;
    const stored = cache.get('/e')!;
    expect(stored.encoded).toEqual({});
    expect(stored.identity?.toString()).toBe(body);

    const gzip = cache.bodyOf('/e', stored, 'gzip');
    expect(gzip.encoding).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(body);
    // The plain body is dropped once a compressed one is kept, and the cache counts the difference.
    expect(cache.get('/e')!.identity).toBeNull();
    expect(cache.bytes).toBe(identityOnly - body.length + gzip.body.length);
    const again = cache.get('/e')!;
    expect(cache.bodyOf('/e', again, 'gzip, deflate').body).toBe(gzip.body);
    expect(cache.bytes).toBe(identityOnly - body.length + gzip.body.length);

    const br = cache.bodyOf('/e', cache.get('/e')!, 'br, gzip');
    expect(br.encoding).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(body);
    expect(cache.bytes).toBe(identityOnly - body.length + gzip.body.length + br.body.length);
    // A client that takes no encoding gets the plain body back, decompressed, and the cache keeps no copy of it.
    const plain = cache.bodyOf('/e', cache.get('/e')!, undefined);
    expect(plain.encoding).toBeNull();
    expect(plain.body.toString()).toBe(body);
    expect(cache.get('/e')!.identity).toBeNull();
    expect(cache.bytes).toBe(identityOnly - body.length + gzip.body.length + br.body.length);
  });

  it('compresses the producing answer quickly and again at stored effort when the entry is asked for a second time', () => {
    const cache = new ResponseCache(1_000_000);
    const body = JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ i, text: `entry ${i % 7}`, more: 'words that repeat '.repeat(i % 5) })));
    const entry = makeEntry({ status: 200, headers: {}, body });
    const first = pickEncoding(entry, 'gzip', { first: true });
    expect(entry.quick).toEqual({ gzip: true });
    cache.set('/q', entry, cache.currentGeneration());
    const withQuick = cache.bytes;

    const second = cache.bodyOf('/q', cache.get('/q')!, 'gzip');
    expect(gunzipSync(second.body).toString()).toBe(body);
    expect(second.body.length).toBeLessThan(first.body.length);
    expect(cache.get('/q')!.quick).toEqual({});
    expect(cache.bytes).toBe(withQuick - first.body.length + second.body.length);
    // Stored effort once: the third answer sends the same bytes.
    expect(cache.bodyOf('/q', cache.get('/q')!, 'gzip').body).toBe(second.body);
  });

  it('finds an entry by an alias of its key, across a clear of other entries, and bounds the aliases in bytes', () => {
    const cache = new ResponseCache(64_000);
    const key = '/api/search?q=a%20b&region=afar';
    const entry = makeEntry({ status: 200, headers: {}, body: 'found' });
    cache.set(key, entry, cache.currentGeneration());
    expect(cache.lookup('/api/search?region=afar&q=a+b')).toBeUndefined();
    cache.alias('/api/search?region=afar&q=a+b', key);
    expect(cache.lookup('/api/search?region=afar&q=a+b')).toEqual({ key, entry });
    expect(cache.lookup(key)).toEqual({ key, entry });
    // A cleared entry makes its aliases miss (they never answer with something else).
    cache.invalidateAll();
    expect(cache.lookup('/api/search?region=afar&q=a+b')).toBeUndefined();
    // Random spellings push older aliases out: the bound is a sixteenth of the cache's bytes.
    for (let i = 0; i < 10_000; i++) cache.alias(`/api/search?q=a+b&_b=${i.toString(36).padStart(12, '0')}`, key);
    expect(cache.aliasBytes).toBeGreaterThan(0);
    expect(cache.aliasBytes).toBeLessThanOrEqual(64_000 / 16);
  });

  it('once full, stores an answer only when its key was produced before lately, so pages asked for once push nothing out', () => {
    const cache = new ResponseCache(20_000);
    const entry = (i: number) => makeEntry({ status: 200, headers: {}, body: 'z'.repeat(1000) + i });
    // While there is room, every answer is stored at its first production.
    let filled = 0;
    while (cache.admits(`/k${filled}`, entry(filled))) {
      cache.set(`/k${filled}`, entry(filled), cache.currentGeneration());
      filled++;
    }
    expect(filled).toBeGreaterThanOrEqual(3);
    const stored = cache.size;
    // Full: a crawler's pages, each produced once, are not admitted and evict nothing.
    for (let i = 0; i < 100; i++) expect(cache.admits(`/once${i}`, entry(i))).toBe(false);
    expect(cache.size).toBe(stored);
    expect(cache.get('/k0')).toBeDefined();
    // A page produced a second time is, and so is the one refused when the cache filled.
    expect(cache.admits('/once5', entry(5))).toBe(true);
    expect(cache.admits(`/k${filled}`, entry(filled))).toBe(true);
    // What was produced is remembered for two generations of 8,192 keys, then forgotten.
    const other = entry(0);
    for (let i = 0; i < 16_384; i++) cache.admits(`/other${i}`, other);
    expect(cache.admits('/once7', entry(7))).toBe(false);
    expect(cache.admits('/once7', entry(7))).toBe(true);
  });

  it('refuses to store a response read before an invalidation', () => {
    const cache = new ResponseCache(1_000_000);
    const generation = cache.currentGeneration();
    cache.invalidateAll();
    expect(cache.set('/x', makeEntry({ status: 200, headers: {}, body: 'old' }), generation)).toBe(false);
    expect(cache.get('/x')).toBeUndefined();
  });
});

describe('public cache in one process', () => {
  let database: Database;
  let app: FastifyInstance;
  let state: Awaited<ReturnType<typeof appWithProbe>>['state'];
  beforeAll(async () => {
    database = await openDatabase({});
    ({ app, state } = await appWithProbe(database));
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('serves repeated anonymous reads from the cache, compressed, with 304 on a matching ETag', async () => {
    const first = await app.inject({ method: 'GET', url: '/api/v1.0.0/__probe', headers: { 'accept-encoding': 'br' } });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(first.rawPayload).toString()).value).toBe('first');
    const second = await app.inject({ method: 'GET', url: '/api/v1.0.0/__probe', headers: { 'accept-encoding': 'gzip' } });
    expect(second.headers['content-encoding']).toBe('gzip');
    expect(state.produced).toBe(1);
    const etag = String(first.headers.etag);
    const notModified = await app.inject({ method: 'GET', url: '/api/v1.0.0/__probe', headers: { 'if-none-match': etag } });
    expect(notModified.statusCode).toBe(304);
    expect(state.produced).toBe(1);
  });

  it('answers a hit with the same headers as the first answer, security headers included', async () => {
    const url = '/api/v1.0.0/__probe?headers';
    const first = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    const hit = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    // The length may differ: the first answer was compressed quickly, the hit at stored effort (same content). A hit
    // never reaches Fastify, so it has no request id (and no log line) of its own; the first answer's is not replayed.
    const comparable = (h: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(h).filter(([k]) => !['date', 'connection', 'keep-alive', 'content-length', 'x-request-id'].includes(k)));
    expect(comparable(hit.headers)).toEqual(comparable(first.headers));
    // Each answer has an id of its own (issue 42 item 11), the cached ones too.
    expect(hit.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(hit.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(gunzipSync(hit.rawPayload).toString()).toBe(gunzipSync(first.rawPayload).toString());
    expect(Number(hit.headers['content-length'])).toBe(hit.rawPayload.length);
    expect(hit.headers['x-content-type-options']).toBe('nosniff');
    expect(hit.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(hit.headers['referrer-policy']).toBe('no-referrer');
    const head = await app.inject({ method: 'HEAD', url, headers: { 'accept-encoding': 'gzip' } });
    expect(head.statusCode).toBe(200);
    expect(head.rawPayload.length).toBe(0);
    // The entry keeps compressed bodies only; a client that takes no encoding still gets the plain body, whole.
    const produced = state.produced;
    const plain = await app.inject({ method: 'GET', url });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(gunzipSync(first.rawPayload).toString());
    expect(Number(plain.headers['content-length'])).toBe(plain.rawPayload.length);
    expect(state.produced).toBe(produced);
  });

  it('never caches signed-in reads', async () => {
    const before = state.produced;
    await app.inject({ method: 'GET', url: '/api/v1.0.0/__probe?signed', headers: { authorization: 'Bearer x' } });
    await app.inject({ method: 'GET', url: '/api/v1.0.0/__probe?signed', headers: { authorization: 'Bearer x' } });
    expect(state.produced).toBe(before + 2);
    await app.inject({ method: 'GET', url: '/api/v1.0.0/__probe?signed' });
    expect(state.produced).toBe(before + 3);
  });

  it('shows a write on the very next anonymous read', async () => {
    await app.inject({ method: 'GET', url: '/api/v1.0.0/__probe' });
    const write = await app.inject({ method: 'POST', url: '/api/v1.0.0/__probe' });
    expect(write.statusCode).toBe(200);
    const after = await app.inject({ method: 'GET', url: '/api/v1.0.0/__probe' });
    expect(after.json().value).toBe('second');
  });

  it('answers a hit over real HTTP from the server itself, before Fastify, until a write clears it', async () => {
    let reachedFastify = 0;
    const listening = await appWithProbe(database, {}, (probe) => probe.addHook('onResponse', async () => void reachedFastify++));
    const base = await listening.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const url = `${base}/api/v1.0.0/__probe?front`;
      const first = await fetch(url);
      expect(first.status).toBe(200);
      expect(((await first.json()) as { value: string }).value).toBe('first');
      expect(reachedFastify).toBe(1);

      const hit = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
      expect(hit.status).toBe(200);
      expect(hit.headers.get('content-encoding')).toBe('gzip');
      expect(hit.headers.get('x-content-type-options')).toBe('nosniff');
      expect(hit.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(((await hit.json()) as { value: string }).value).toBe('first');
      const notModified = await fetch(url, { headers: { 'if-none-match': first.headers.get('etag')! } });
      expect(notModified.status).toBe(304);
      const signedIn = await fetch(url, { headers: { authorization: 'Bearer x' } });
      expect(signedIn.status).toBe(200);
      expect(reachedFastify).toBe(2);
      expect(listening.state.produced).toBe(2);

      expect((await fetch(`${base}/api/v1.0.0/__probe`, { method: 'POST' })).status).toBe(200);
      const after = await fetch(url);
      expect(((await after.json()) as { value: string }).value).toBe('second');
      expect(reachedFastify).toBe(4);
    } finally {
      await listening.app.close();
    }
  });

  it('does not keep a read that raced with a write', async () => {
    state.duringProduce = () => app.contentChanged({ area: 'records' });
    await app.inject({ method: 'GET', url: '/api/v1.0.0/__probe?race' });
    state.duringProduce = null;
    const before = state.produced;
    await app.inject({ method: 'GET', url: '/api/v1.0.0/__probe?race' });
    expect(state.produced).toBe(before + 1);
  });
});

// Two server processes on one database: a write in one clears the other's cache (PostgreSQL suite: TEST_PG_URL).
describe.runIf(Boolean(process.env.TEST_PG_URL))('public cache across two processes', () => {
  const variants = [
    ['PostgreSQL LISTEN/NOTIFY', {} as Record<string, string>],
    ['Redis pub/sub', { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }],
  ] as const;
  for (const [name, extraEnv] of variants) {
    it(`invalidates through ${name}`, async () => {
      const base = process.env.TEST_PG_URL!;
      const dbName = `cache_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`create database ${dbName}`);
      const url = new URL(base);
      url.pathname = `/${dbName}`;
      const env = { DATABASE_URL: url.toString(), ...extraEnv };
      const dbA = await openDatabase({ databaseUrl: url.toString() });
      const dbB = await openDatabase({ databaseUrl: url.toString() });
      const a = await appWithProbe(dbA, env);
      const b = await appWithProbe(dbB, env);
      try {
        await b.app.inject({ method: 'GET', url: '/api/v1.0.0/__probe' });
        await b.app.inject({ method: 'GET', url: '/api/v1.0.0/__probe' });
        expect(b.state.produced).toBe(1);
        await a.app.inject({ method: 'POST', url: '/api/v1.0.0/__probe' });
        await expect.poll(async () => {
          await b.app.inject({ method: 'GET', url: '/api/v1.0.0/__probe' });
          return b.state.produced;
        }, { timeout: 3000, interval: 50 }).toBeGreaterThan(1);
      } finally {
        await a.app.close();
        await b.app.close();
        await dbA.close();
        await dbB.close();
        await admin.query(`drop database ${dbName} with (force)`);
        await admin.end();
      }
    });
  }
});
