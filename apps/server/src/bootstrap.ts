import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import v8 from 'node:v8';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase, type Database } from './db';
import { exitFatally, logFatalErrors } from './fatal';

/**
 * How far the JavaScript heap may grow past what V8's last full collection kept before it collects again, in percent.
 * Left to itself, V8 allows up to 300 % on a machine with much memory, and under uncached reads the site's process
 * then held mostly garbage not yet collected; 50 % holds much less for a little more CPU per read. Read by V8 at every
 * collection, so it applies when set here.
 *
 * The young generation is bounded too, by a flag on the `node` command (V8 sizes it before any code runs, so it
 * cannot be set here): scripts/node-flags.mjs, with the site's other Node.js flags and why.
 * The figures, with the commands that measure them: docs/performance.md, memory.
 */
const HEAP_GROWING_PERCENT = 50;

/**
 * What every entry point (server, worker, command line) does first: read the configuration, stopping with the
 * message that names the bad variable, then open the configured database with its migrations applied.
 */
export async function startProcess(
  options: { poolSize?: number; allowPgliteFolder?: boolean } = {},
): Promise<{ config: Config; database: Database }> {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  if (!config.DATABASE_URL && !options.allowPgliteFolder && hasPgliteFolder(config.dataDir)) {
    // Starting on an empty embedded server would hide every record kept there: say what to do instead.
    console.error(
      `${pgliteFolder(config.dataDir)} holds a database of the earlier built-in engine (PGlite). ` +
        'The site now runs a PostgreSQL server in the data folder; move the records into it once with\n' +
        '  npm run admin -- migrate-from-pglite\n' +
        'which copies every table, checks the row counts and the audit chain, and keeps the old folder.',
    );
    process.exit(1);
  }
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    embeddedDataDir: config.dataDir,
    poolSize: options.poolSize ?? poolSizeOf(config),
    log: (message) => console.error(message),
  });
  return { config, database };
}

/** Connections to PostgreSQL: DATABASE_POOL_SIZE, else twice the CPUs plus one (see config.ts). */
export function poolSizeOf(config: Pick<Config, 'DATABASE_POOL_SIZE'>): number {
  return config.DATABASE_POOL_SIZE ?? 2 * availableParallelism() + 1;
}

/** The earlier default engine's folder, left by versions before the embedded PostgreSQL server. */
export function pgliteFolder(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

export function hasPgliteFolder(dataDir: string): boolean {
  return existsSync(path.join(pgliteFolder(dataDir), 'PG_VERSION'));
}

/**
 * SIGINT/SIGTERM (or the wrapper that started this process going) close the app and the database once, then exit; a
 * stuck close is cut off after 10 s.
 */
export function closeOnSignals(app: FastifyInstance, database: Database, whatClosingDoes: string): void {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: ${whatClosingDoes}`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await app.close();
      await database.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // Started by a wrapper that could not become this process (scripts/exec-node.mjs on a Node.js without execve): its
  // IPC channel closes when the wrapper goes, even by kill -9, and this process then stops as on SIGTERM rather than
  // keep the port with nobody left to stop it.
  if (!watchesParent) return;
  process.on('disconnect', () => void shutdown('the process that started this one is gone'));
  if (parentGone) void shutdown('the process that started this one is gone');
}

// That channel alone must not keep a process running (a command of the CLI that is done), and the wrapper may go
// before the server is up: closeOnSignals then stops it as soon as it can.
// Only a process exec-node.mjs started watches its channel: any other one's (a test runner's worker) is not ours to
// unref or to stop on.
const watchesParent = process.env.SITE_WATCHES_PARENT === '1';
delete process.env.SITE_WATCHES_PARENT;
let parentGone = false;
if (watchesParent) {
  process.once('disconnect', () => (parentGone = true));
  process.channel?.unref();
}

/** Runs an entry point's main; a failure of its start, or any error nothing handles later, is logged as JSON (fatal.ts) and ends it. */
export function run(main: () => Promise<void>): void {
  logFatalErrors();
  main().catch((err: unknown) => exitFatally(err, 'the process failed to start'));
}
