import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE } from '@app/shared';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { multipart, sampleFields, testImage } from './records-helpers';
import { startS3Server } from './s3-server';
import { deleteRedisKeys, startTcpProxy } from './tcp-proxy';
import { getCategory } from '@app/shared';

/** /ready, /metrics, request ids, and what a request meets when S3 or Redis goes away. */

const TOKEN = 'metrics-token-for-tests-only';
let s3: Awaited<ReturnType<typeof startS3Server>>;
let t: TestApp;

beforeAll(async () => {
  s3 = await startS3Server(['ops-test']);
  t = await createTestApp({ ...s3.env('ops-test'), METRICS_TOKEN: TOKEN });
});
afterAll(async () => {
  await t?.close();
  // The S3 test stops it before.
  await s3?.close().catch(() => {});
});

/** One sample's value from Prometheus text, or null when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return null;
}

const scrape = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  return res.body;
};

it('/ready says which part answers: database and storage ok, Redis not configured', async () => {
  const res = await call(t.app, { method: 'GET', url: '/ready' });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    status: 'ok',
    checks: {
      database: 'ok',
      redis: 'not configured',
      storage: 'ok',
      // PGlite (the default here) has no LISTEN connection; a PostgreSQL server does.
      cacheListener: process.env.TEST_PG_URL ? 'ok' : 'not configured',
      cacheSubscriber: 'not configured',
      mail: 'ok',
    },
  });
  expect((await call(t.app, { method: 'GET', url: '/health' })).status).toBe(200);
});

it('/metrics needs the bearer token', async () => {
  expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
  const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } });
  expect(wrong.statusCode).toBe(401);
  expect(wrong.body).not.toContain('http_requests_total');
  const ok = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(ok.headers['content-type']).toContain('text/plain');
});

it('counts requests by route pattern and status, cache hits and misses, queued jobs and mail failures', async () => {
  const before = await scrape();
  const hitsBefore = sample(before, 'public_cache_hits_total') ?? 0;
  const missesBefore = sample(before, 'public_cache_misses_total') ?? 0;
  // Two records: the route pattern, not each URL, is the label.
  for (const id of ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002']) {
    expect((await t.app.inject({ method: 'GET', url: `${API_BASE}/victims/${id}` })).statusCode).toBe(404);
  }
  expect((await t.app.inject({ method: 'GET', url: `${API_BASE}/victims` })).statusCode).toBe(200);
  expect((await t.app.inject({ method: 'GET', url: `${API_BASE}/victims` })).statusCode).toBe(200);
  await t.app.jobs.enqueue('ops.test-never-run', {});
  const mail = t.app.mail as unknown as { deliver: () => Promise<never> };
  const realDeliver = mail.deliver;
  mail.deliver = async () => {
    throw new Error('SMTP refused (test)');
  };
  await expect(t.app.mail.send({ to: 'x@example.test', subject: 's', text: 't' })).rejects.toThrow('SMTP refused');
  mail.deliver = realDeliver;

  const after = await scrape();
  const detailRoute = after.split('\n').find((l) => l.startsWith('http_requests_total{') && l.includes('status="404"') && l.includes(`${API_BASE}/`));
  expect(detailRoute).toMatch(/route="[^"]*:[a-z]+[^"]*"/);
  expect(Number(detailRoute!.split(' ').at(-1))).toBeGreaterThanOrEqual(2);
  expect(after).not.toContain('00000000-0000-4000-8000-000000000001');
  expect(sample(after, 'http_request_duration_seconds_count', { status: '404' })).toBeGreaterThanOrEqual(2);
  // Both 404s and the first list read were produced; only the second list read came from the cache.
  expect(sample(after, 'public_cache_misses_total')).toBe(missesBefore + 3);
  expect(sample(after, 'public_cache_hits_total')).toBe(hitsBefore + 1);
  expect(sample(after, 'job_queue_depth', { state: 'queued' })).toBeGreaterThanOrEqual(1);
  expect(sample(after, 'mail_failures_total')).toBe(1);
  expect(sample(after, 'mail_jobs_failed')).toBe(0);
});

it('echoes a well-formed X-Request-Id and replaces one that could forge log lines', async () => {
  const kept = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'proxy-abc.123' } });
  expect(kept.headers['x-request-id']).toBe('proxy-abc.123');
  const replaced = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'a b" level=fatal' } });
  expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  const fresh = await t.app.inject({ method: 'GET', url: '/health' });
  expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(fresh.headers['x-request-id']).not.toBe(replaced.headers['x-request-id']);
});

it('S3 gone: uploads are a 503 that says so, /ready names storage, reads keep working', async () => {
  const user = await createUser(t.app, 'contributor');
  const category = getCategory('victims')!;
  const total = async () => (await t.app.inject({ method: 'GET', url: `${API_BASE}/victims?limit=1`, headers: user.auth })).headers['x-total-count'];
  const countBefore = await total();
  await s3.close();
  const body = multipart(sampleFields(category), [{ field: 'image', filename: 'p.png', type: 'image/png', data: await testImage(1) }]);
  const upload = await call(t.app, { method: 'POST', url: `${API_BASE}/victims`, headers: { ...user.auth, ...body.headers }, payload: body.payload });
  expect(upload.status).toBe(503);
  expect(upload.body.message).toMatch(/file storage is unreachable/i);
  expect(upload.headers['retry-after']).toBe('30');
  expect(await total()).toBe(countBefore);
  const ready = await call(t.app, { method: 'GET', url: '/ready' });
  expect(ready.status).toBe(503);
  expect(ready.body).toMatchObject({ status: 'unavailable', failed: ['storage'], checks: { database: 'ok', storage: 'unreachable' } });
  expect((await t.app.inject({ method: 'GET', url: `${API_BASE}/victims` })).statusCode).toBe(200);
});

describe('without a metrics token', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await createTestApp();
  });
  afterAll(async () => bare?.close());

  it('/metrics does not exist, even with a bearer token', async () => {
    expect((await bare.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    expect((await bare.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer anything-at-all-1234' } })).statusCode).toBe(404);
  });
});

describe('closing (SIGTERM)', () => {
  let closingApp: TestApp;
  beforeAll(async () => {
    closingApp = await createTestApp();
  });
  afterAll(async () => closingApp?.close());

  it('serves a request that arrives on an open connection while closing, and closes that connection, instead of a 503', async () => {
    await closingApp.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = closingApp.app.server.address() as net.AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    // A request in flight (its body not all sent) keeps the connection busy while the server starts closing.
    const body = JSON.stringify({ email: 'closing@example.test', password: 'not the password 1' });
    socket.write(`POST /api/users/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
    await new Promise((r) => setTimeout(r, 100));
    const closed = closingApp.app.close();
    await new Promise((r) => setTimeout(r, 100));
    // The rest of the body, and a second request on the same connection, as a proxy's keep-alive connection sends it.
    socket.write(`${body.slice(10)}GET /health HTTP/1.1\r\nHost: x\r\n\r\n`);
    await ended;
    await closed;
    const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
    expect(statuses).toEqual([401, 200]);
    const second = received.slice(received.lastIndexOf('HTTP/1.1 '));
    expect(second.toLowerCase()).toContain('connection: close');
  });
});

/** Redis behind a relay the test cuts: the shared Redis stays up for everyone else. CI's PostgreSQL suite sets REDIS_URL. */
describe.skipIf(!process.env.REDIS_URL)('Redis gone mid-run (needs REDIS_URL: npm run test:pg)', () => {
  let relay: Awaited<ReturnType<typeof startTcpProxy>>;
  let withRedis: TestApp;
  const warnings: string[] = [];
  const prefix = `ops-${Date.now().toString(36)}:`;
  beforeAll(async () => {
    const target = new URL(process.env.REDIS_URL!);
    relay = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    withRedis = await createTestApp({ REDIS_URL: `redis://127.0.0.1:${relay.port}`, RATE_LIMIT_PREFIX: prefix });
    const log = withRedis.app.log as unknown as { warn: (...args: unknown[]) => void };
    log.warn = (...args: unknown[]) => void warnings.push(args.map((a) => (typeof a === 'string' ? a : '')).join(' '));
  });
  afterAll(async () => {
    await withRedis?.close();
    await relay?.close();
    await deleteRedisKeys(process.env.REDIS_URL!, prefix);
  });

  it('sign-in keeps answering (limits per process, logged once), /ready is 503 for redis, and all is back after', async () => {
    const signin = (email: string) => call(withRedis.app, { method: 'POST', url: '/api/users/signin', payload: { email, password: 'not the password 1' } });
    expect((await call(withRedis.app, { method: 'GET', url: '/ready' })).status).toBe(200);
    expect((await signin('before@example.test')).status).toBe(401);

    await relay.cut();
    await new Promise((r) => setTimeout(r, 200));
    const email = 'during-outage@example.test';
    const started = Date.now();
    // Five failures still trip the per-e-mail limit: the process counts on its own meanwhile.
    for (let i = 0; i < 5; i++) expect((await signin(email)).status).toBe(401);
    expect((await signin(email)).status).toBe(429);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(warnings.filter((w) => /Redis unreachable, each process counts on its own/.test(w))).toHaveLength(1);
    const ready = await call(withRedis.app, { method: 'GET', url: '/ready' });
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({
      failed: ['redis', 'cacheSubscriber'],
      checks: { database: 'ok', redis: 'unreachable', storage: 'ok', cacheSubscriber: 'unreachable' },
    });
    expect((await withRedis.app.inject({ method: 'GET', url: `${API_BASE}/victims` })).statusCode).toBe(200);

    await relay.restore();
    await expect.poll(async () => (await call(withRedis.app, { method: 'GET', url: '/ready' })).status, { timeout: 10_000, interval: 200 }).toBe(200);
    expect((await signin('after@example.test')).status).toBe(401);
    expect(warnings.some((w) => /Redis answers again/.test(w))).toBe(true);
  });

  it('/ready probed every moment of a Redis outage logs it going once and its return once, with no line per probe', async () => {
    const ready = async () => (await call(withRedis.app, { method: 'GET', url: '/ready' })).status;
    await expect.poll(ready, { timeout: 10_000, interval: 200 }).toBe(200);
    warnings.length = 0;
    await relay.cut();
    await expect.poll(ready, { timeout: 10_000, interval: 100 }).toBe(503);
    for (let probe = 0; probe < 10; probe++) expect(await ready()).toBe(503);
    expect(warnings.filter((w) => /ready check: redis unreachable/.test(w))).toHaveLength(1);
    await relay.restore();
    await expect.poll(ready, { timeout: 10_000, interval: 200 }).toBe(200);
    for (let probe = 0; probe < 5; probe++) expect(await ready()).toBe(200);
    expect(warnings.filter((w) => /ready check: redis answers again/.test(w))).toHaveLength(1);
    expect(warnings.filter((w) => /ready check: redis unreachable/.test(w))).toHaveLength(1);
  });
});
