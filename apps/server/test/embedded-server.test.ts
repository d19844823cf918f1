import { spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { API_BASE } from '@app/shared';
import { answering, spawnSite, type ChildSite } from './fixtures/child-site';
import { freePort } from './fixtures/free-port';

/**
 * The site on its default database, as `npm start` runs it (src/main.ts, with no DATABASE_URL): a PostgreSQL server
 * started from the npm-installed binaries in the data folder. These tests run real processes and kill them.
 */

const serverDir = path.resolve(import.meta.dirname, '..');
const SUPER = { email: 'durability-super@example.test', password: 'test password, not a real account' };
const folders: string[] = [];
const running = new Set<ChildProcess>();

function dataFolder(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'embedded-test-'));
  chmodSync(dir, 0o755); // as root the database runs as the user postgres, which must be able to enter it
  folders.push(dir);
  return dir;
}

type Site = ChildSite;

async function startSite(dataDir: string, port: number): Promise<Site> {
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', SAMPLE_DATA: 'false', INITIAL_SUPER_EMAIL: SUPER.email, INITIAL_SUPER_PASSWORD: SUPER.password };
  return answering(spawnSite(env, port, running));
}

async function signIn(url: string, credentials = SUPER): Promise<string> {
  const res = await fetch(`${url}/api/users/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

function postmasterPid(dataDir: string): number | null {
  try {
    return Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]) || null;
  } catch {
    return null;
  }
}

function kill(pid: number | null | undefined): void {
  if (!pid) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

async function stopSite(site: Site): Promise<void> {
  if (site.child.exitCode !== null || site.child.signalCode !== null) return;
  const exited = new Promise((r) => site.child.once('exit', r));
  site.child.kill('SIGTERM');
  await exited;
}

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  for (const dir of folders) {
    kill(postmasterPid(dir));
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('the embedded PostgreSQL server', () => {
  it('loses no acknowledged write when the site and the database are killed at random moments', async () => {
    const dataDir = dataFolder();
    const port = await freePort();
    const acknowledged = new Map<string, string>(); // record id -> title
    const ROUNDS = 6;
    const kills: string[] = [];
    let sequence = 0;

    for (let round = 0; round < ROUNDS; round++) {
      const site = await startSite(dataDir, port);
      const token = await signIn(site.url);
      // At least 35 writes acknowledged in each round before the kill, then a random number more while it happens.
      const killAfter = 35 + Math.floor(Math.random() * 30);
      let ackedThisRound = 0;
      let stop = false;
      const statuses = new Map<number, number>();
      const writer = async () => {
        while (!stop) {
          const title = `Durability test record ${++sequence} (test data, not real)`;
          const form = new FormData();
          form.set('title', title);
          form.set('linkURL', 'https://example.org/durability-test');
          form.set('description', 'Written by the durability test; not real data.');
          try {
            const res = await fetch(`${site.url}${API_BASE}/links`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            if (res.status === 201) {
              const body = (await res.json()) as { _id: string; title: string };
              acknowledged.set(body._id, body.title);
              ackedThisRound++;
            }
          } catch {
            // the connection died with a killed process: not acknowledged, so nothing is owed
          }
        }
      };
      const writers = Array.from({ length: 4 }, writer);
      const stalledAt = Date.now() + 120_000;
      while (ackedThisRound < killAfter) {
        if (Date.now() > stalledAt) throw new Error(`writes stalled at ${ackedThisRound}: ${JSON.stringify([...statuses])}\n${site.output()}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      const victim = (['site', 'database', 'both'] as const)[Math.floor(Math.random() * 3)]!;
      kills.push(victim);
      if (victim !== 'site') kill(postmasterPid(dataDir));
      if (victim !== 'database') kill(site.child.pid);
      // Writes go on against what is left (a site whose database was killed restarts it) for a moment, then the site
      // is killed too, and the next round starts it the way `npm start` does.
      await new Promise((r) => setTimeout(r, 200 + Math.random() * 600));
      kill(site.child.pid);
      stop = true;
      await Promise.all(writers);
    }

    expect(acknowledged.size).toBeGreaterThanOrEqual(200);
    const site = await startSite(dataDir, port);
    try {
      const token = await signIn(site.url);
      const missing: string[] = [];
      for (const [id, title] of acknowledged) {
        const res = await fetch(`${site.url}${API_BASE}/links/${id}`, { headers: { authorization: `Bearer ${token}` } });
        const body = res.status === 200 ? ((await res.json()) as { title: string }) : null;
        if (body?.title !== title) missing.push(`${id} (${res.status})`);
      }
      expect(missing, `kills: ${kills.join(', ')}`).toEqual([]);
      const verify = await fetch(`${site.url}${API_BASE}/audit/verify`, { headers: { authorization: `Bearer ${token}` } });
      const chain = (await verify.json()) as { ok: boolean; entries: number };
      expect(chain.ok).toBe(true);
      expect(chain.entries).toBeGreaterThanOrEqual(acknowledged.size);
      console.log(`durability: ${acknowledged.size} acknowledged writes over ${ROUNDS} kills (${kills.join(', ')}), all found; audit chain of ${chain.entries} entries verifies`);
    } finally {
      await stopSite(site);
    }
    // The last process to leave stopped the server cleanly (within the 10 s a shutdown may take).
    expect(postmasterPid(dataDir), `the site exited with ${site.child.exitCode ?? site.child.signalCode}:\n${site.output()}`).toBeNull();
  }, 300_000);

  it('lets the admin CLI write beside the running site: a super created from the command line signs in through the site', async () => {
    const dataDir = dataFolder();
    const site = await startSite(dataDir, await freePort());
    try {
      const pid = postmasterPid(dataDir);
      const account = { email: 'cli-super@example.test', password: 'another test password' };
      const cli = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'create-super', account.email, account.password], {
        cwd: serverDir,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
        encoding: 'utf8',
      });
      expect(cli.stderr).not.toContain('Error');
      expect(cli.stdout).toContain(`Created super account ${account.email}`);
      expect(cli.status).toBe(0);
      // The command joined the site's server rather than starting one, and leaving did not stop it.
      expect(postmasterPid(dataDir)).toBe(pid);
      expect(await signIn(site.url, account)).toMatch(/^ey/);
    } finally {
      await stopSite(site);
    }
    expect(postmasterPid(dataDir)).toBeNull();
  });

  it('starts the database for a CLI command when the site is not running, and stops it after', () => {
    const dataDir = dataFolder();
    const cli = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'create-super', 'offline-super@example.test', 'a test password'], {
      cwd: serverDir,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      encoding: 'utf8',
    });
    expect(cli.status).toBe(0);
    expect(cli.stderr).toContain('The site is not running');
    expect(postmasterPid(dataDir)).toBeNull();
  });
});
