import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, getCategory } from '@app/shared';
import { multipart, sampleFields, testImage } from './records-helpers';
import { startS3Server } from './s3-server';
import { deleteRedisKeys, startTcpProxy } from './tcp-proxy';

/**
 * The production topology without containers: two server processes and a worker, built as shipped
 * (apps/server/dist), on loopback against one fresh PostgreSQL database, Redis (behind a relay the test can cut) and
 * an S3 server (s3rver) of the test's own. Every check goes through both ports.
 */

const TEST_PG_URL = process.env.TEST_PG_URL;
const REDIS_URL = process.env.REDIS_URL;
const ROOT = path.resolve(import.meta.dirname, '../../..');
const haveFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0;
const SUPER = { email: 'cluster-super@example.test', password: 'cluster test password (test only)' };
const METRICS_TOKEN = 'cluster-metrics-token-test-only';

interface SiteProcess {
  name: string;
  child: ChildProcess;
  port: number;
  url: string;
  logs: string[];
  exited: Promise<number | null>;
}

/** The JSON log lines a process wrote (pino), parsed; other lines are skipped. */
function logEntries(site: SiteProcess): Record<string, unknown>[] {
  return site.logs.flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

describe.skipIf(!TEST_PG_URL || !REDIS_URL)('two servers and a worker on PostgreSQL, Redis and S3 (needs TEST_PG_URL and REDIS_URL: npm run test:pg)', () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'cluster-test-'));
  const dbName = `cluster_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let redisRelay: Awaited<ReturnType<typeof startTcpProxy>>;
  let databaseUrl: string;
  let one: SiteProcess;
  let two: SiteProcess;
  let worker: SiteProcess;
  let token: string;
  let ipCounter = 0;
  /** Each check signs in from an address of its own (TRUST_PROXY), so one check's failures do not block the next. */
  const nextIp = () => `198.51.100.${++ipCounter}`;
  const started: SiteProcess[] = [];

  function env(port: number): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(work, `data-${port}`),
      DATABASE_URL: databaseUrl,
      REDIS_URL: `redis://127.0.0.1:${redisRelay.port}`,
      RATE_LIMIT_PREFIX: `${dbName}:`,
      ...s3.env('cluster'),
      JWT_SECRET: 'cluster-test-jwt-secret-'.padEnd(48, 'x'),
      AUDIT_SIGNING_KEY: auditKey,
      TRUST_PROXY: 'true',
      SAMPLE_DATA: 'false',
      CAPTURE_ENABLED: 'false',
      INITIAL_SUPER_EMAIL: SUPER.email,
      INITIAL_SUPER_PASSWORD: SUPER.password,
      // The super writes with a password alone, as in the other suites (two-factor.test.ts has the second factor).
      REQUIRE_TWO_FACTOR: 'off',
      METRICS_TOKEN,
      LOG_LEVEL: 'info',
    };
  }
  const auditKey = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

  async function startProcess(name: string, entry: 'main' | 'worker', port: number): Promise<SiteProcess> {
    const child = spawn(process.execPath, ['--enable-source-maps', path.join(ROOT, `apps/server/dist/${entry}.js`)], {
      env: env(port),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const logs: string[] = [];
    let partial = '';
    const collect = (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      logs.push(...lines);
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const site: SiteProcess = { name, child, port, url: `http://127.0.0.1:${port}`, logs, exited };
    started.push(site);
    const ready = entry === 'worker' ? /Worker \d+ running jobs/ : /Site on /;
    // Long enough for a loaded machine; the loop ends as soon as the process says it is ready or exits.
    const deadline = Date.now() + 240_000;
    while (!logs.some((l) => ready.test(l))) {
      if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}):\n${logs.join('\n')}`);
      if (Date.now() > deadline) throw new Error(`${name} did not start within 4 minutes:\n${logs.join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return site;
  }

  const freePort = () =>
    new Promise<number>((resolve) => {
      const s = http.createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });

  async function get(site: SiteProcess, url: string, headers: Record<string, string> = {}) {
    const res = await fetch(site.url + url, { headers });
    const text = await res.text();
    let json: any = undefined;
    try {
      json = JSON.parse(text);
    } catch {
      /* a page or an image */
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  async function post(site: SiteProcess, url: string, body: { payload: Buffer | string; headers: Record<string, string> }) {
    const res = await fetch(site.url + url, { method: 'POST', headers: body.headers, body: body.payload });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
  }

  const signin = (site: SiteProcess, email: string, password: string, ip: string) =>
    post(site, '/api/users/signin', {
      payload: JSON.stringify({ email, password }),
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    });

  async function createRecord(site: SiteProcess, slug: string, overrides: Record<string, string>, files: Parameters<typeof multipart>[1] = []) {
    const body = multipart({ ...sampleFields(getCategory(slug)!), ...overrides }, files);
    return post(site, `${API_BASE}/${slug}`, { payload: body.payload, headers: { ...body.headers, authorization: `Bearer ${token}` } });
  }

  beforeAll(async () => {
    // The processes run the bundle, as `npm start` does.
    const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs')], { cwd: ROOT, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`build-server failed:\n${build.stdout}\n${build.stderr}`);
    const admin = new pg.Client({ connectionString: TEST_PG_URL });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const url = new URL(TEST_PG_URL!);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
    s3 = await startS3Server(['cluster']);
    const redisUrl = new URL(REDIS_URL!);
    redisRelay = await startTcpProxy({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) });
    // Started together: the migrations run once under their advisory lock, whichever process takes it first.
    [one, two, worker] = await Promise.all([
      startProcess('server one', 'main', await freePort()),
      startProcess('server two', 'main', await freePort()),
      startProcess('worker', 'worker', await freePort()),
    ]);
    const res = await signin(one, SUPER.email, SUPER.password, nextIp());
    expect(res.status).toBe(200);
    token = res.json.token;
  });

  afterAll(async () => {
    for (const site of started) if (site.child.exitCode === null) site.child.kill('SIGTERM');
    await Promise.all(started.map((s) => Promise.race([s.exited, new Promise((r) => setTimeout(r, 15_000))])));
    for (const site of started) if (site.child.exitCode === null) site.child.kill('SIGKILL');
    await redisRelay?.close();
    await s3?.close().catch(() => {});
    await deleteRedisKeys(REDIS_URL!, `${dbName}:`);
    if (databaseUrl) {
      const admin = new pg.Client({ connectionString: TEST_PG_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    }
    rmSync(work, { recursive: true, force: true });
  });

  it('both servers are ready, with database, Redis and storage, and the worker runs', async () => {
    expect(worker.child.exitCode).toBeNull();
    for (const site of [one, two]) {
      const ready = await get(site, '/ready');
      expect(ready.status).toBe(200);
      expect(ready.json.checks).toEqual({ database: 'ok', redis: 'ok', storage: 'ok', cacheListener: 'ok', cacheSubscriber: 'ok', mail: 'ok' });
    }
  });

  it('a write on one is read on the other at once: API, server-rendered page and gallery', async () => {
    // Fill both servers' caches first, so a stale answer would show.
    for (const site of [one, two]) {
      for (const url of [`${API_BASE}/victims`, `${API_BASE}/images`, '/victims']) expect((await get(site, url)).status).toBe(200);
      expect((await get(site, `${API_BASE}/victims`)).status).toBe(200);
    }
    const title = `Cluster sample ${randomBytes(3).toString('hex')} (test data)`;
    const created = await createRecord(one, 'victims', { title }, [
      { field: 'image', filename: 'c.png', type: 'image/png', data: await testImage(7) },
    ]);
    expect(created.status).toBe(201);
    const id = created.json._id as string;

    const list = await get(two, `${API_BASE}/victims`);
    expect(list.json.map((r: { _id: string }) => r._id)).toContain(id);
    const detail = await get(two, `${API_BASE}/victims/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.json.title).toBe(title);
    const page = await get(two, `/victims/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(title);
    const gallery = await get(two, `${API_BASE}/images`);
    expect(JSON.stringify(gallery.json)).toContain(id);

    // Again and again, alternating sides: the other process's cache message must land before the write answers.
    for (let i = 0; i < 10; i++) {
      const [writer, reader] = i % 2 ? [two, one] : [one, two];
      const next = await createRecord(writer, 'victims', { title: `Cluster sample ${i} (test data)` });
      expect(next.status).toBe(201);
      expect((await get(reader, `${API_BASE}/victims`)).json.map((r: { _id: string }) => r._id)).toContain(next.json._id);
    }

    // An upload through one is served by the other, byte for byte what one serves.
    const imageUrl = detail.json.imageUrl as string;
    expect(imageUrl).toMatch(/^\/media\/public\//);
    const [fromOne, fromTwo] = await Promise.all([fetch(one.url + imageUrl), fetch(two.url + imageUrl)]);
    expect(fromTwo.status).toBe(200);
    expect(fromTwo.headers.get('content-type')).toMatch(/^image\//);
    expect(Buffer.from(await fromTwo.arrayBuffer()).equals(Buffer.from(await fromOne.arrayBuffer()))).toBe(true);
  });

  // One address guessing one account's password (5 failures per account and address, users/service.ts): the failures
  // counted on either server add up, so the sixth is refused on both.
  it('rate limits are shared: sign-in failures on both servers add up', async () => {
    const email = `nobody-${randomBytes(3).toString('hex')}@example.test`;
    const guesser = nextIp();
    for (const site of [one, two, one, two, one]) expect((await signin(site, email, 'not the password 1', guesser)).status).toBe(401);
    const blocked = await signin(two, email, 'not the password 1', guesser);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await signin(one, email, 'not the password 1', guesser)).status).toBe(429);
  });

  it.skipIf(!haveFfmpeg)('a video job runs exactly once, though all three processes run the queue', async () => {
    const video = path.join(work, 'clip.mp4');
    const made = spawnSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=160x120:rate=10', '-pix_fmt', 'yuv420p', '-y', video]);
    expect(made.status).toBe(0);
    const created = await createRecord(two, 'videos', { videoUrl: '' }, [{ field: 'image', filename: 'clip.mp4', type: 'video/mp4', data: readFileSync(video) }]);
    expect(created.status).toBe(201);
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const job = async () =>
        (
          await db.query<{ state: string; attempts: number; last_error: string | null }>(
            `select j.state, j.attempts, j.last_error from jobs j join media m on m.id::text = j.payload->>'mediaId'
             where j.kind = 'video.process' and m.record_id = $1`,
            [created.json._id],
          )
        ).rows;
      await expect.poll(async () => (await job()).map((j) => j.state), { timeout: 60_000, interval: 250 }).not.toEqual(['queued']);
      await expect.poll(async () => (await job()).map((j) => j.state), { timeout: 60_000, interval: 250 }).not.toEqual(['processing']);
      expect(await job()).toEqual([{ state: 'done', attempts: 1, last_error: null }]);
      const media = await db.query<{ status: string; public_key: string | null }>('select status, public_key from media where record_id = $1', [created.json._id]);
      expect(media.rows).toHaveLength(1);
      expect(media.rows[0]!.status).toBe('ready');
    } finally {
      await db.end();
    }
    // The processed video is shown by the server that did not take the upload.
    const detail = await get(one, `${API_BASE}/videos/${created.json._id}`);
    expect(JSON.stringify(detail.json)).toMatch(/posterUrl/);
  });

  it('logs carry the request id a proxy gave, and answers echo it', async () => {
    const requestId = `cluster-${randomBytes(4).toString('hex')}`;
    const res = await get(two, '/ready', { 'x-request-id': requestId });
    expect(res.headers.get('x-request-id')).toBe(requestId);
    await expect.poll(() => logEntries(two).filter((e) => e.reqId === requestId).length).toBeGreaterThanOrEqual(1);
    const metrics = await get(two, '/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(metrics.text).toMatch(/http_requests_total\{method="GET",route="\/ready",status="200"\} \d+/);
  });

  it('Redis gone: sign-in and writes keep working, a write on one still clears the other, /ready says redis', async () => {
    await redisRelay.cut();
    try {
      for (const site of [one, two]) {
        // Redis and the cache subscription that runs over it are both named once each has noticed.
        await expect.poll(async () => (await get(site, '/ready')).json.failed, { timeout: 30_000 }).toEqual(['redis', 'cacheSubscriber']);
        expect((await get(site, '/ready')).json).toMatchObject({ status: 'unavailable', checks: { redis: 'unreachable', cacheSubscriber: 'unreachable', database: 'ok', storage: 'ok' } });
        expect((await signin(site, SUPER.email, 'wrong password 1', nextIp())).status).toBe(401);
      }
      expect((await get(two, `${API_BASE}/victims`)).status).toBe(200);
      const title = `Written without Redis ${randomBytes(3).toString('hex')} (test data)`;
      const created = await createRecord(one, 'victims', { title });
      expect(created.status).toBe(201);
      // Cache changes go through PostgreSQL meanwhile: two answers the new list, not its cached one.
      await expect
        .poll(async () => (await get(two, `${API_BASE}/victims`)).json.map((r: { _id: string }) => r._id), { timeout: 2000, interval: 50 })
        .toContain(created.json._id);
      for (const site of [one, two]) {
        expect(logEntries(site).some((e) => /Redis unreachable/.test(String(e.msg)))).toBe(true);
      }
    } finally {
      await redisRelay.restore();
    }
    for (const site of [one, two]) await expect.poll(async () => (await get(site, '/ready')).status, { timeout: 15_000, interval: 250 }).toBe(200);
  });

  it('SIGTERM drains a slow upload started before it, and the other server keeps serving', async () => {
    const body = multipart({ ...sampleFields(getCategory('victims')!), title: 'Slow upload (test data)' }, [
      { field: 'image', filename: 'slow.png', type: 'image/png', data: await testImage(11) },
    ]);
    const chunks = 10;
    const size = Math.ceil(body.payload.length / chunks);
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${one.url}${API_BASE}/victims`, {
        method: 'POST',
        headers: { ...body.headers, 'content-length': String(body.payload.length), authorization: `Bearer ${token}` },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      void (async () => {
        // About 2 s of upload: SIGTERM lands in the middle of it.
        for (let i = 0; i < chunks; i++) {
          req.write(body.payload.subarray(i * size, (i + 1) * size));
          await new Promise((r) => setTimeout(r, 200));
        }
        req.end();
      })();
    });
    await new Promise((r) => setTimeout(r, 500));
    one.child.kill('SIGTERM');
    // The other server answers while one drains.
    for (let i = 0; i < 5; i++) {
      expect((await get(two, `${API_BASE}/victims`)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 100));
    }
    const finished = await answer;
    expect(finished.status).toBe(201);
    expect(JSON.parse(finished.body).title).toBe('Slow upload (test data)');
    expect(await one.exited).toBe(0);
    expect((await get(two, `${API_BASE}/victims/${JSON.parse(finished.body)._id}`)).status).toBe(200);
    await expect(fetch(one.url + '/health')).rejects.toThrow();
  });

  it('S3 gone: an upload is a clear 503 and /ready says storage; reads go on', async () => {
    await s3.close();
    const created = await createRecord(two, 'victims', { title: 'Upload while S3 is down (test data)' }, [
      { field: 'image', filename: 'x.png', type: 'image/png', data: await testImage(12) },
    ]);
    expect(created.status).toBe(503);
    expect(created.json.message).toMatch(/file storage is unreachable/i);
    const ready = await get(two, '/ready');
    expect(ready.status).toBe(503);
    expect(ready.json).toMatchObject({ failed: ['storage'], checks: { database: 'ok', redis: 'ok', storage: 'unreachable' } });
    expect((await get(two, `${API_BASE}/victims`)).status).toBe(200);
    expect(existsSync(path.join(work, `data-${two.port}`, 'media', 'originals'))).toBe(false);
  });
});
