import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE } from '@app/shared';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase, type Database } from '../src/db';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { multipart, testImage } from './records-helpers';

/** Anonymous reads, as a visitor sends them (compressed), parsed. */
async function anonymous(app: FastifyInstance, url: string) {
  const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
  return { status: res.statusCode, body: res.statusCode === 200 ? res.json() : null, total: res.headers['x-total-count'] };
}

const massacre = (title: string) => ({
  title,
  description: 'Test record for the cache tests, not real data.',
  caseNum: 'TEST-1',
  quantity: '3',
});

describe('public cache with the records API (one process)', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t.app, 'admin');
  });
  afterAll(async () => t.close());

  it('shows every kind of write on the very next anonymous read', async () => {
    const list = `${API_BASE}/massacres`;
    const created = await call(t.app, { method: 'POST', url: list, headers: admin.auth, payload: massacre('Cache test A') });
    expect(created.status).toBe(201);
    const id = created.body._id as string;
    const one = `${API_BASE}/massacres/${id}`;

    // Warm the cache, then check each write is seen at once.
    expect((await anonymous(t.app, list)).body.map((r: { title: string }) => r.title)).toContain('Cache test A');
    expect((await anonymous(t.app, one)).body.approved).toBe(false);
    const hitsBefore = t.app.publicCache.stats().hits;
    await anonymous(t.app, list);
    expect(t.app.publicCache.stats().hits).toBe(hitsBefore + 1);

    await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${id}/edit`, headers: admin.auth, payload: { title: 'Cache test B' } });
    expect((await anonymous(t.app, one)).body.title).toBe('Cache test B');
    expect((await anonymous(t.app, list)).body[0].title).toBe('Cache test B');

    await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/approve/${id}`, headers: admin.auth });
    expect((await anonymous(t.app, one)).body.approved).toBe(true);

    const total = Number((await anonymous(t.app, list)).total);
    await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${id}/access`, headers: admin.auth });
    expect((await anonymous(t.app, one)).status).toBe(404);
    expect(Number((await anonymous(t.app, list)).total)).toBe(total - 1);
    await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${id}/access`, headers: admin.auth });
    expect((await anonymous(t.app, one)).status).toBe(200);

    await call(t.app, { method: 'DELETE', url: `${API_BASE}/massacres/${id}/delete`, headers: admin.auth });
    expect((await anonymous(t.app, one)).status).toBe(404);
    expect((await anonymous(t.app, list)).body.map((r: { _id: string }) => r._id)).not.toContain(id);

    await call(t.app, { method: 'PUT', url: `${API_BASE}/trash/${id}/restore`, headers: admin.auth });
    expect((await anonymous(t.app, one)).status).toBe(200);
    expect((await anonymous(t.app, list)).body.map((r: { _id: string }) => r._id)).toContain(id);
    // The page shell's link preview follows too.
    const page = await t.app.inject({ method: 'GET', url: `/massacres/${id}` });
    expect(page.body).toContain('Cache test B');
  });

  it('never lets a private record into the cache', async () => {
    const created = await call(t.app, { method: 'POST', url: `${API_BASE}/events`, headers: admin.auth, payload: { title: 'Private test event', description: 'Test data, not real.' } });
    const id = created.body._id as string;
    await call(t.app, { method: 'PUT', url: `${API_BASE}/events/${id}/access`, headers: admin.auth });
    // A signed-in reader sees it; that answer is not stored for anyone else.
    const signedIn = await call(t.app, { method: 'GET', url: `${API_BASE}/events/${id}`, headers: admin.auth });
    expect(signedIn.status).toBe(200);
    const signedInList = await call(t.app, { method: 'GET', url: `${API_BASE}/events`, headers: admin.auth });
    expect(signedInList.body.map((r: { _id: string }) => r._id)).toContain(id);
    expect((await anonymous(t.app, `${API_BASE}/events/${id}`)).status).toBe(404);
    expect((await anonymous(t.app, `${API_BASE}/events`)).body.map((r: { _id: string }) => r._id)).not.toContain(id);
    const page = await t.app.inject({ method: 'GET', url: `/events/${id}` });
    expect(page.body).not.toContain('Private test event');
  });

  it("sends a signed-in reader the stored compressed bytes only of the very answer anonymous visitors get", async () => {
    for (const title of ['Cache test shared 1', 'Cache test shared 2']) {
      expect((await call(t.app, { method: 'POST', url: `${API_BASE}/massacres`, headers: admin.auth, payload: massacre(title) })).status).toBe(201);
    }
    const withImage = multipart(massacre('Cache test shared 3'), [{ field: 'files[]', filename: 'cache-test.png', type: 'image/png', data: await testImage(5) }]);
    expect((await call(t.app, { method: 'POST', url: `${API_BASE}/massacres`, headers: { ...admin.auth, ...withImage.headers }, payload: withImage.payload })).status).toBe(201);
    const gzipRead = (url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url, headers: { ...headers, 'accept-encoding': 'gzip' } });
    // The gallery: every image is on a public record and an item names no account, so the signed-in answer is the
    // anonymous one.
    const list = `${API_BASE}/images?limit=5`;
    const fresh = await gzipRead(list, admin.auth);
    const stored = await gzipRead(list);
    await gzipRead(list);
    const shared = await gzipRead(list, admin.auth);
    expect(shared.statusCode).toBe(200);
    expect(shared.headers['content-encoding']).toBe('gzip');
    expect(shared.headers['cache-control']).toBe(fresh.headers['cache-control']);
    expect(shared.headers.etag).toBe(stored.headers.etag);
    expect(gunzipSync(shared.rawPayload).equals(gunzipSync(fresh.rawPayload))).toBe(true);
    // The cache's bytes (compressed once more at stored effort by the second anonymous read), not compressed again.
    expect(shared.rawPayload.equals((await gzipRead(list)).rawPayload)).toBe(true);
    expect(shared.rawPayload.equals(fresh.rawPayload)).toBe(false);
    expect(JSON.parse(gunzipSync(shared.rawPayload).toString())).toHaveLength(1);

    // A list of records is the signed-in reader's own: it names who created each record, which anonymous answers do not.
    const records = `${API_BASE}/massacres?limit=5`;
    await gzipRead(records);
    const anonymousRecords = await gzipRead(records);
    const signedInRecords = await gzipRead(records, admin.auth);
    expect(signedInRecords.headers.etag).not.toBe(anonymousRecords.headers.etag);
    expect(JSON.parse(gunzipSync(signedInRecords.rawPayload).toString())[0].userId).toBe(admin.id);
    expect(JSON.parse(gunzipSync(anonymousRecords.rawPayload).toString())[0]).not.toHaveProperty('userId');

    // Events: the signed-in list also holds the private event, so it is its own answer.
    const events = `${API_BASE}/events`;
    await gzipRead(events);
    const json = (res: { rawPayload: Buffer; headers: Record<string, unknown> }) =>
      JSON.parse((res.headers['content-encoding'] === 'gzip' ? gunzipSync(res.rawPayload) : res.rawPayload).toString());
    const anonymousEvents = json(await gzipRead(events));
    const signedInBody = json(await gzipRead(events, admin.auth));
    expect(signedInBody.length).toBe(anonymousEvents.length + 1);
    expect(signedInBody.map((r: { title: string }) => r.title)).toContain('Private test event');
  });
});

// Two server processes on one PostgreSQL database (the PostgreSQL suite sets TEST_PG_URL).
describe.runIf(Boolean(process.env.TEST_PG_URL))('public cache with the records API (two processes)', () => {
  const base = process.env.TEST_PG_URL ?? '';
  const dbName = `cache_records_${Date.now().toString(36)}`;
  let admin: pg.Client;
  let databases: Database[] = [];
  let apps: FastifyInstance[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    const url = new URL(base);
    url.pathname = `/${dbName}`;
    for (let i = 0; i < 2; i++) {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cache-records-'));
      dirs.push(dataDir);
      const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', JWT_SECRET: 'z'.repeat(40), DATABASE_URL: url.toString() });
      const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 3 });
      databases.push(database);
      const app = await buildApp({ config, database, runJobs: false, logger: false });
      await app.ready();
      apps.push(app);
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const database of databases) await database.close();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    apps = [];
    databases = [];
  });

  it('shows a write made in one process on the next anonymous read in the other', async () => {
    const [a, b] = apps as [FastifyInstance, FastifyInstance];
    const editor = await createUser(a, 'admin');
    const created = await call(a, { method: 'POST', url: `${API_BASE}/massacres`, headers: editor.auth, payload: massacre('Two processes A') });
    const one = `${API_BASE}/massacres/${created.body._id}`;
    expect((await anonymous(b, one)).body.title).toBe('Two processes A');
    expect((await anonymous(b, one)).body.title).toBe('Two processes A'); // now cached in b
    // A signed-in read in b (never the response cache) keeps the record serialised (records/fragments.ts).
    const reader = await createUser(b, 'contributor');
    const signedIn = async () => (await call(b, { method: 'GET', url: one, headers: reader.auth })).body.title;
    expect(await signedIn()).toBe('Two processes A');
    expect(b.recordFragments.get(created.body._id)).toBeDefined();
    await call(a, { method: 'PUT', url: `${one}/edit`, headers: editor.auth, payload: { title: 'Two processes B' } });
    // The notification crosses processes asynchronously: within a moment, never a stale answer for long.
    await expect.poll(async () => (await anonymous(b, one)).body.title, { timeout: 2000, interval: 20 }).toBe('Two processes B');
    await expect.poll(signedIn, { timeout: 2000, interval: 20 }).toBe('Two processes B');
    await call(a, { method: 'PUT', url: `${one}/access`, headers: editor.auth });
    await expect.poll(async () => (await anonymous(b, one)).status, { timeout: 2000, interval: 20 }).toBe(404);
  });
});
