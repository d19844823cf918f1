import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { stopCluster } from '../src/db/embedded-server';
import { freePort } from './fixtures/free-port';

/**
 * `npm start`, `npm run serve` and `npm run worker` as a supervisor runs them: SIGTERM or SIGINT to the process it started (npm) stops
 * the server and its embedded PostgreSQL server, leaving nothing running. Supervisors (systemd, tini, a process
 * manager) signal that one process, not its process group as a terminal's Ctrl-C does.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'start-signals-test-'));
chmodSync(dataDir, 0o755); // as root the database runs as the user postgres, which must be able to enter it
const clusterDir = path.join(dataDir, 'postgres');

/** Every process whose command line or environment names the test's data folder (the site, npm, PostgreSQL). */
function processesOfDataDir(): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!pid || pid === process.pid) continue;
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
      if (command.includes(dataDir) || environ.split('\0').includes(`DATA_DIR=${dataDir}`)) found.push({ pid, command });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

afterAll(async () => {
  for (const { pid } of processesOfDataDir()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  await stopCluster(clusterDir).catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
});

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

async function until(what: string, done: () => boolean | Promise<boolean>, child: ChildProcess, output: () => string, ms: number): Promise<number> {
  const started = Date.now();
  while (!(await done())) {
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms / 1000} s\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return Date.now() - started;
}

async function startThenSignal(script: 'start' | 'serve' | 'worker', signal: 'SIGTERM' | 'SIGINT') {
  const port = await freePort();
  const child = spawn('npm', ['run', script], {
    cwd: ROOT,
    // The worker says when it runs (at level info); it answers no HTTP.
    env: { ...process.env, NODE_ENV: '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SAMPLE_DATA: 'false', LOG_LEVEL: script === 'worker' ? 'info' : 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  const ready = () =>
    script === 'worker' ? /Worker \d+ running jobs/.test(output) : fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
  // `npm start` may build first: minutes on a loaded machine.
  const readyMs = await until(`npm run ${script} ready`, async () => {
    if (gone) throw new Error(`npm run ${script} exited before it was ready:\n${output}`);
    return ready();
  }, child, () => output, 600_000);
  expect(processesOfDataDir().some((p) => p.command.includes(`-D ${clusterDir}`))).toBe(true);

  child.kill(signal);
  // The issue asks for 10 s; the limit here only catches a hang on a busy machine, the time taken is printed.
  const took = await until(
    `after ${signal} to npm run ${script}: the site's port closed, npm, the process it ran and PostgreSQL gone`,
    async () => gone && !(await portOpen(port)) && !existsSync(path.join(clusterDir, 'postmaster.pid')) && processesOfDataDir().length === 0,
    child,
    () => `${output}\nstill running:\n${processesOfDataDir().map((p) => `${p.pid} ${p.command}`).join('\n')}`,
    60_000,
  );
  console.log(`npm run ${script}: ready in ${(readyMs / 1000).toFixed(1)} s; after ${signal} everything stopped in ${(took / 1000).toFixed(1)} s`);
  return output;
}

it('SIGINT to npm start stops the site and its database', async () => {
  await startThenSignal('start', 'SIGINT');
});

it('SIGTERM to npm run serve stops the site and its database', async () => {
  await startThenSignal('serve', 'SIGTERM');
});

it('npm start again, with no source changed: no build, and SIGTERM stops it all', async () => {
  const output = await startThenSignal('start', 'SIGTERM');
  expect(output).toContain('The build is current');
  expect(output).not.toMatch(/vite v\d|server bundled/);
});

it('SIGTERM to npm run worker stops the worker and the database it started', async () => {
  await startThenSignal('worker', 'SIGTERM');
});

/** A Node.js on this machine older than the site's (no process.execve): Debian's, where installed. */
const SYSTEM_NODE = ['/usr/bin/node', '/usr/local/bin/node'].find(
  (node) => existsSync(node) && spawnSync(node, ['-p', 'typeof process.execve']).stdout?.toString().trim() === 'undefined',
);

it.skipIf(!SYSTEM_NODE)("node scripts/serve.mjs on an older Node.js runs the server on the project's Node.js, which stops when the wrapper is killed -9", async () => {
  // Run after the tests above, which build the site (npm start).
  const port = await freePort();
  const wrapper = spawn(SYSTEM_NODE!, ['scripts/serve.mjs'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SAMPLE_DATA: 'false', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  wrapper.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  wrapper.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  await until('the site answering', async () => {
    if (wrapper.exitCode !== null) throw new Error(`the wrapper exited (${wrapper.exitCode}):\n${output}`);
    return fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
  }, wrapper, () => output, 300_000);
  const server = readdirSync('/proc')
    .map(Number)
    .find((pid) => {
      try {
        return pid && readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1] === String(wrapper.pid);
      } catch {
        return false; // gone meanwhile
      }
    });
  expect(server, 'the server runs as a child of the wrapper').toBeDefined();
  expect(realpathSync(`/proc/${server}/exe`)).toBe(realpathSync(path.join(ROOT, 'node_modules/.bin/node')));

  process.kill(wrapper.pid!, 'SIGKILL');
  const took = await until(
    'after kill -9 of the wrapper: the server and its PostgreSQL gone, the port closed',
    async () => !(await portOpen(port)) && !existsSync(path.join(clusterDir, 'postmaster.pid')) && processesOfDataDir().length === 0,
    wrapper,
    () => `${output}\nstill running:\n${processesOfDataDir().map((p) => `${p.pid} ${p.command}`).join('\n')}`,
    60_000,
  );
  console.log(`${SYSTEM_NODE} (${spawnSync(SYSTEM_NODE!, ['--version']).stdout.toString().trim()}) scripts/serve.mjs: the server ran on the project's Node.js; after kill -9 of the wrapper it stopped in ${(took / 1000).toFixed(1)} s`);
});
