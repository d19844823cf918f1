import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE } from '@app/shared';
import { loadBinaries, reachableBinaries, runBinary, serverUser } from '../src/db/embedded/binaries';
import { openEmbeddedServer, stopCluster, type EmbeddedServer } from '../src/db/embedded-server';
import { answering, spawnSite, type ChildSite } from './fixtures/child-site';
import { freePort } from './fixtures/free-port';
import { expectRecovered, healthy, signIn, startWrites, until, type WriteStream } from './fixtures/write-stream';

/**
 * Issue 51 on a PostgreSQL server of the operator's (DATABASE_URL) shared by two servers: pg_terminate_backend of the
 * site's connections, and a fast restart of PostgreSQL, each during a stream of writes to both, ended every server
 * that was writing; and while PostgreSQL was down the API answered 500. The PostgreSQL server here is the test's own
 * (a throwaway cluster run from the binaries the site ships, reached by its Unix socket), so restarting it disturbs
 * no one else's; the sites know it only by its URL, as any external server.
 */

const SUPER = { email: 'pg-fault-super@example.test', password: 'test password, not a real account' };
const JWT_SECRET = 'database-faults-test-jwt-secret-'.padEnd(48, 'x');
const work = mkdtempSync(path.join(os.tmpdir(), 'database-faults-pg-'));
chmodSync(work, 0o755); // as root the database runs as the user postgres, which must be able to enter it
const clusterDir = path.join(work, 'server', 'postgres');
/** The server's own log: pg_ctl's output goes there, or the server would hold pg_ctl's pipes open and it never ends. */
const serverLog = path.join(clusterDir, 'log', 'server.log');
const running = new Set<ChildProcess>();

describe('faults of an external PostgreSQL under two servers', () => {
  let server: EmbeddedServer;
  let sites: { site: ChildSite; token: string }[];

  const pgCtl = async (...args: string[]) => {
    const user = serverUser();
    const bin = reachableBinaries(await loadBinaries(), user);
    const result = await runBinary(bin.pg_ctl, [...args, '-D', clusterDir, '-w', '-t', '120'], user);
    expect(result.code, result.output).toBe(0);
  };

  beforeAll(async () => {
    server = await openEmbeddedServer(path.join(work, 'server'));
    const start = async (name: string) => {
      const env = {
        DATA_DIR: path.join(work, name),
        DATABASE_URL: server.url,
        REDIS_URL: '',
        JWT_SECRET,
        SAMPLE_DATA: 'false',
        CAPTURE_ENABLED: 'false',
        INITIAL_SUPER_EMAIL: SUPER.email,
        INITIAL_SUPER_PASSWORD: SUPER.password,
      };
      return answering(spawnSite(env, await freePort(), running));
    };
    const [one, two] = await Promise.all([start('one'), start('two')]);
    sites = [
      { site: one!, token: await signIn(one!, SUPER.email, SUPER.password) },
      { site: two!, token: await signIn(two!, SUPER.email, SUPER.password) },
    ];
  });

  afterAll(async () => {
    for (const child of running) child.kill('SIGKILL');
    await stopCluster(clusterDir).catch(() => {});
    rmSync(work, { recursive: true, force: true });
  });

  /** Runs a stream of writes to both servers, does `fault` once writes are acknowledged, and checks what followed. */
  async function duringWrites(label: string, fault: () => Promise<void>): Promise<WriteStream> {
    const stream = startWrites(sites, label, 2);
    await until('writes under way', () => stream.acknowledged.length >= 20, 120_000);
    await fault();
    const faultAt = Date.now();
    const before = stream.acknowledged.length;
    await until(
      `writes acknowledged again after ${label}`,
      () => sites.some(({ site }) => site.child.exitCode !== null) || stream.acknowledged.length >= before + 10,
      120_000,
    );
    await stream.stop();
    // The issue asks for 10 s; the limit is looser for a loaded machine, and the time is printed.
    await expectRecovered(sites, stream, 30_000);
    const statuses = stream.refused.map((r) => r.status);
    console.log(`${label}: ${stream.acknowledged.length} writes acknowledged, all there; ${statuses.length} answered 503 with Retry-After; both servers serving ${Date.now() - faultAt} ms after the fault`);
    for (const { site } of sites) expect(site.output()).not.toMatch(/Unhandled 'error' event|DeprecationWarning/);
    return stream;
  }

  it('pg_terminate_backend of every connection of the site during writes: both servers live and lose nothing', async () => {
    await duringWrites('pg_terminate_backend', async () => {
      const admin = new pg.Client({ connectionString: server.url });
      admin.on('error', () => {});
      await admin.connect();
      try {
        const { rows } = await admin.query(
          'select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
        );
        expect(rows.filter((r: { ended: boolean }) => r.ended).length).toBeGreaterThan(2);
      } finally {
        await admin.end();
      }
    });
  });

  it('pg_ctl restart -m fast during writes: both servers live, reconnect and lose nothing', async () => {
    await duringWrites('pg_ctl restart -m fast', () => pgCtl('restart', '-m', 'fast', '-l', serverLog));
  });

  it('while PostgreSQL is stopped the API answers 503 with Retry-After and the error body, and serves once it is back', async () => {
    await pgCtl('stop', '-m', 'fast');
    try {
      for (const { site, token } of sites) {
        const form = new FormData();
        form.set('title', 'Sample write while the database is down (test data)');
        form.set('linkURL', 'https://example.org/database-down-test');
        const write = await fetch(`${site.url}${API_BASE}/links`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
        const read = await fetch(`${site.url}${API_BASE}/links`, { headers: { authorization: `Bearer ${token}` } });
        for (const res of [write, read]) {
          expect(res.status).toBe(503);
          expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
          expect(await res.json()).toEqual({ message: expect.stringMatching(/database is unreachable/) });
        }
        expect((await fetch(`${site.url}/health`)).status).toBe(503);
      }
    } finally {
      await pgCtl('start', '-l', serverLog);
    }
    const startedAt = Date.now();
    for (const { site } of sites) await until(`${site.url} /health after PostgreSQL started again`, () => healthy(site), 30_000);
    console.log(`PostgreSQL stopped: writes, reads and /health answered 503; both servers healthy ${Date.now() - startedAt} ms after it started again`);
    for (const { site } of sites) expect(site.child.exitCode).toBeNull();
  });
});
