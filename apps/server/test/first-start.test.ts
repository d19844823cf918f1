import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { CATEGORY_LIST } from '@app/shared';
import { MIGRATION_LOCK } from '../src/db';
import { SAMPLE_PER_CATEGORY } from '../src/seed/sample';
import { databaseUrl, onServer } from './fixtures/postgres-admin';
import { sharedPostgres } from './fixtures/shared';
import { answering, spawnSite } from './fixtures/child-site';
import { freePort } from './fixtures/free-port';

/**
 * Servers started together on one empty database (src/main.ts, as `npm start` runs it): they migrate it and seed it
 * once between them, not once each.
 */

const running = new Set<ChildProcess>();
const cleanups: (() => Promise<void> | void)[] = [];

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  for (const cleanup of cleanups.reverse()) await cleanup();
});

it('three servers started together on an empty database make one set of sample records and one sample account', async () => {
  const { server } = await sharedPostgres();
  const name = `first_start_${Date.now().toString(36)}`;
  await onServer(server, `create database ${name}`); // empty: not even migrated
  cleanups.push(() => onServer(server, `drop database if exists ${name} with (force)`));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'first-start-test-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  // NODE_ENV as `npm start` runs it: the sample account's password is hashed at full cost, as slowly as on a site.
  const env = { DATABASE_URL: databaseUrl(server, name), DATA_DIR: dataDir, SAMPLE_DATA: 'true', NODE_ENV: 'development' };
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  cleanups.push(() => client.end());

  // Started together: the test holds the migrations' lock until all three wait for it, so they go on side by side.
  await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
  const spawned = await Promise.all([1, 2, 3].map(async () => spawnSite(env, await freePort(), running)));
  const waiting = async () =>
    (await client.query<{ n: number }>("select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = $1 and not granted", [MIGRATION_LOCK])).rows[0]!.n;
  const deadline = Date.now() + 240_000;
  while ((await waiting()) < 3) {
    for (const site of spawned) if (site.child.exitCode !== null) throw new Error(`a site exited (${site.child.exitCode}):\n${site.output()}`);
    if (Date.now() > deadline) throw new Error('the three sites did not all reach the database within 4 minutes');
    await new Promise((r) => setTimeout(r, 100));
  }
  await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  const sites = await Promise.all(spawned.map(answering));

  const counts = (await client.query<{ category: string; n: number }>('select category, count(*)::int as n from records where sample group by category')).rows;
  expect(counts).toHaveLength(CATEGORY_LIST.length);
  for (const { category, n } of counts) expect(n, category).toBe(SAMPLE_PER_CATEGORY);

  const passwords = sites.flatMap((site) => [...site.output().matchAll(/Password \(shown once\): (\S+)/g)].map((m) => m[1]!));
  expect(passwords).toHaveLength(1);
  // The one password shown works, on any of the servers.
  for (const site of sites) {
    const res = await fetch(`${site.url}/api/users/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'sample-super@example.org', password: passwords[0] }),
    });
    expect(res.status).toBe(200);
  }
});
