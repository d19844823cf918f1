import { appendFileSync, chownSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { runBinary, SUPERUSER, type Binaries, type ServerUser } from './binaries';

/** The embedded server's cluster on disk: initialising it, its settings, starting it, and whether it runs. */

/** Sized for a small machine (2 cores, a few hundred MB for the whole site); the only place these are set. */
export const EMBEDDED_SETTINGS: Record<string, string> = {
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

export const PORT = 5432;
/** A Unix socket path is limited to 107 bytes; `.s.PGSQL.5432` is appended to the folder. */
const MAX_SOCKET_DIR = 107 - '/.s.PGSQL.5432'.length;

type Log = (message: string) => void;

export function socketDir(clusterDir: string): string {
  if (clusterDir.length <= MAX_SOCKET_DIR) return clusterDir;
  // A deep DATA_DIR: a short folder of its own, named after the cluster so every process finds the same one.
  return path.join(os.tmpdir(), `evidence-pg-${createHash('sha256').update(clusterDir).digest('hex').slice(0, 16)}`);
}

export function passwordFile(dataDir: string): string {
  return path.join(dataDir, 'postgres-password');
}

export function readOrCreatePassword(dataDir: string): string {
  const file = passwordFile(dataDir);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const password = randomBytes(24).toString('base64url');
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/**
 * initdb into a temporary folder renamed into place, so an interrupted first start never leaves half a cluster.
 * Returns whether this call's cluster is the one in place (false: another process's came first).
 */
export async function initialise(bin: Binaries, clusterDir: string, password: string, user: ServerUser, log: Log): Promise<boolean> {
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
  const result = await runBinary(
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
    return true;
  } catch (err) {
    // Another process initialised it at the same moment: theirs is as good as ours.
    if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) throw err;
    return false;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * The settings are written at every start into a file of their own that postgresql.conf includes, so a change of
 * EMBEDDED_SETTINGS reaches existing clusters and nothing needs quoting on a command line.
 */
export function writeSettings(clusterDir: string, socket: string, user: ServerUser, extra: Record<string, string> = {}): void {
  const settings = { ...EMBEDDED_SETTINGS, ...extra, unix_socket_directories: socket, unix_socket_permissions: '0700', port: String(PORT) };
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
export function isRunning(clusterDir: string): boolean {
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
export async function ensureRunning(
  bin: Binaries,
  clusterDir: string,
  socket: string,
  user: ServerUser,
  log: Log,
  extraSettings: Record<string, string> = {},
): Promise<boolean> {
  const deadline = Date.now() + 30_000;
  let logged = false;
  for (;;) {
    if (isRunning(clusterDir)) return false;
    const logFile = path.join(clusterDir, 'log', 'server.log');
    mkdirSync(path.dirname(logFile), { recursive: true });
    if (user) chownSync(path.dirname(logFile), user.uid, user.gid);
    writeSettings(clusterDir, socket, user, extraSettings);
    const result = await runBinary(bin.pg_ctl, ['start', '-D', clusterDir, '-w', '-t', '600', '-l', logFile], user);
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

export function connectionUrl(socket: string, password: string, database: string): string {
  const url = new URL(`postgres://${SUPERUSER}@localhost/${database}`);
  url.password = password;
  url.searchParams.set('host', socket);
  url.searchParams.set('port', String(PORT));
  return url.toString();
}

/** The server's process id, from the first line of postmaster.pid (null when it does not run). */
export function postmasterPid(clusterDir: string): number | null {
  try {
    const pid = Number(readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
