import { Redis } from 'ioredis';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db';
import { LISTENER_APPLICATION_NAME } from '../src/modules/cache/postgres-listener';
import { makeEntry } from '../src/modules/cache/cached-entry';
import { ResponseCache } from '../src/modules/cache/response-cache';
import { RecordFragments } from '../src/modules/records/fragments';
import { ListPositions } from '../src/modules/records/list-positions';
import { appWithProbe } from './cache-probe';
import { createTestDatabase } from './fixtures/shared';
import { startTcpProxy } from './tcp-proxy';

/**
 * Issue 42 item 1: the links that carry cache changes between server processes (PostgreSQL LISTEN, the Redis
 * subscription) come back after they drop, a process that may have missed changes clears its caches, /ready and /health
 * name a link that is down, and CACHE_MAX_AGE_SECONDS bounds what is served whatever happens. Two app servers on the
 * run's shared PostgreSQL (and the shared Redis at REDIS_URL or 127.0.0.1:6379).
 */

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Catches a hang only: the reader is expected to see the write within a second or two. */
const SEEN_WITHIN = { timeout: 15_000, interval: 50 };

type Probe = Awaited<ReturnType<typeof appWithProbe>>;

const read = (probe: Probe) => probe.app.inject({ method: 'GET', url: '/api/v1.0.0/__probe' });
const write = (probe: Probe) => probe.app.inject({ method: 'POST', url: '/api/v1.0.0/__probe' });
const ready = async (app: FastifyInstance) => {
  const res = await app.inject({ method: 'GET', url: '/ready' });
  return { status: res.statusCode, body: res.json() as { failed?: string[]; checks: Record<string, string> } };
};

/** Reads on `reader` until it answers from the cache (its probe produced once for the last two reads). */
async function warm(reader: Probe): Promise<number> {
  await read(reader);
  const produced = reader.state.produced;
  await read(reader);
  expect(reader.state.produced).toBe(produced);
  return produced;
}

/** A write on `writer`, then reads on `reader` until it produces its answer again (its cache let the write through). */
async function writeIsSeen(writer: Probe, reader: Probe): Promise<void> {
  const before = await warm(reader);
  const started = Date.now();
  expect((await write(writer)).statusCode).toBe(200);
  await expect
    .poll(async () => {
      await read(reader);
      return reader.state.produced;
    }, SEEN_WITHIN)
    .toBeGreaterThan(before);
  console.info(`write seen by the other server after ${Date.now() - started} ms`);
}

describe('the links carrying cache changes between two servers come back after they drop', () => {
  let drop: () => Promise<void>;
  let url: string;
  const opened: { database: Database; app?: FastifyInstance }[] = [];

  async function server(env: Record<string, string>, databaseUrl = url): Promise<Probe> {
    const database = await openDatabase({ databaseUrl, poolSize: 2 });
    const probe = await appWithProbe(database, { DATABASE_URL: databaseUrl, ...env });
    opened.push({ database, app: probe.app });
    return probe;
  }

  /** Terminates the LISTEN connections of every server on the test's database, as an operator's pg_terminate_backend would. */
  async function terminateListeners(): Promise<number> {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const { rows } = await admin.query(
        'select pg_terminate_backend(pid) as done from pg_stat_activity where datname = current_database() and application_name = $1',
        [LISTENER_APPLICATION_NAME],
      );
      return rows.filter((row: { done: boolean }) => row.done).length;
    } finally {
      await admin.end();
    }
  }

  beforeAll(async () => {
    ({ url, drop } = await createTestDatabase());
  });
  afterAll(async () => {
    for (const { app, database } of opened.reverse()) {
      await app?.close();
      await database.close();
    }
    await drop?.();
  });

  it('PostgreSQL LISTEN: after pg_terminate_backend of the listeners, a write on one is read on the other', async () => {
    const one = await server({});
    const two = await server({});
    await writeIsSeen(one, two);

    expect(await terminateListeners()).toBe(2);
    // Written at once, while the reader's listener may still be away: what it missed, it must not keep serving.
    await writeIsSeen(one, two);

    // And it listens again: a later write reaches it as a notification.
    await expect.poll(async () => (await ready(two.app)).status, SEEN_WITHIN).toBe(200);
    await writeIsSeen(one, two);
    await writeIsSeen(two, one);
  });

  it('PostgreSQL gone and back (a restart): /ready and /health name the listener meanwhile, and the reader sees writes after', async () => {
    // The run's server is on a Unix socket (the embedded one: ?host=<folder>&port=N) or on TCP (TEST_PG_URL).
    const direct = new URL(url);
    const socketFolder = direct.searchParams.get('host');
    const relay = await startTcpProxy(
      socketFolder
        ? { path: `${socketFolder}/.s.PGSQL.${direct.searchParams.get('port') ?? 5432}` }
        : { host: direct.hostname, port: Number(direct.port || 5432) },
    );
    try {
      const viaRelay = new URL(url);
      viaRelay.searchParams.delete('host');
      viaRelay.searchParams.delete('port');
      viaRelay.host = `127.0.0.1:${relay.port}`;
      const writer = await server({});
      const reader = await server({}, viaRelay.toString());
      await writeIsSeen(writer, reader);

      await relay.cut();
      await expect.poll(async () => (await ready(reader.app)).body.failed ?? [], SEEN_WITHIN).toContain('cacheListener');
      expect((await ready(reader.app)).body.checks.cacheListener).toBe('unreachable');
      // A write while the reader cannot hear it.
      const before = reader.state.produced;
      expect((await write(writer)).statusCode).toBe(200);

      await relay.restore();
      await expect.poll(async () => (await ready(reader.app)).status, SEEN_WITHIN).toBe(200);
      const health = await reader.app.inject({ method: 'GET', url: '/health' });
      expect(health.json()).toMatchObject({ status: 'ok', cacheListeners: { postgres: 'ok', redis: 'not configured' } });
      await expect
        .poll(async () => {
          await read(reader);
          return reader.state.produced;
        }, SEEN_WITHIN)
        .toBeGreaterThan(before);
      await writeIsSeen(writer, reader);
    } finally {
      await relay.close();
    }
  });

  it('Redis subscription: after CLIENT KILL of the subscribers, a write on one is read on the other', async () => {
    const prefix = `cache-listeners-${Date.now().toString(36)}:`;
    const env = { REDIS_URL, RATE_LIMIT_PREFIX: prefix };
    const one = await server(env);
    const two = await server(env);
    const admin = new Redis(REDIS_URL);
    /** The connections of both servers' cache subscribers (found by the name they give themselves). */
    const subscribers = async () =>
      ((await admin.call('client', 'list')) as string)
        .split('\n')
        .filter((line) => line.includes(` name=${prefix}cache-subscriber `))
        .map((line) => /^id=(\d+)/.exec(line)![1]!);
    /** Kills both subscribers once both are connected (the last kill's reconnects may still be under way). */
    const killSubscribers = async () => {
      await expect.poll(async () => (await subscribers()).length, SEEN_WITHIN).toBe(2);
      const ids = await subscribers();
      for (const id of ids) await admin.call('client', 'kill', 'id', id);
      return ids.length;
    };
    try {
      await writeIsSeen(one, two);
      // A change published while a subscriber reconnects was lost before; each round gives it another chance to be.
      for (let round = 0; round < 3; round++) {
        expect(await killSubscribers()).toBe(2);
        await writeIsSeen(one, two);
      }
      await expect.poll(async () => (await ready(two.app)).body.checks.cacheSubscriber, SEEN_WITHIN).toBe('ok');
      await writeIsSeen(one, two);
      await writeIsSeen(two, one);
    } finally {
      admin.disconnect();
    }
  });
});

describe('CACHE_MAX_AGE_SECONDS bounds what is served whatever happens', () => {
  it('an answer cached by a server is produced again once older than the maximum age, with no change at all', async () => {
    const database = await openDatabase({});
    const probe = await appWithProbe(database, { CACHE_MAX_AGE_SECONDS: '1' });
    try {
      await read(probe);
      await read(probe);
      expect(probe.state.produced).toBe(1);
      await expect
        .poll(async () => {
          await read(probe);
          return probe.state.produced;
        }, SEEN_WITHIN)
        .toBe(2);
    } finally {
      await probe.app.close();
      await database.close();
    }
  });

  it('the response cache, the serialised records and the list positions each forget what is older than their maximum age', async () => {
    const responses = new ResponseCache(1_000_000, 100);
    responses.set('/x', makeEntry({ status: 200, headers: {}, body: 'x' }), responses.currentGeneration());
    const fragments = new RecordFragments(1_000_000, 100);
    fragments.set('a', RecordFragments.make('{"id":"a"}', 'victims', true), fragments.currentGeneration());
    const positions = new ListPositions(100);
    positions.rememberTotal('victims', 10, positions.currentGeneration());
    expect(responses.get('/x')).toBeDefined();
    expect(fragments.get('a')).toBeDefined();
    expect(positions.totalOf('victims')).toBe(10);
    await expect.poll(() => [responses.get('/x'), fragments.get('a'), positions.totalOf('victims')], SEEN_WITHIN).toEqual([undefined, undefined, undefined]);
  });
});
