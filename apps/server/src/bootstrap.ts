import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase, type Database } from './db';

/**
 * What every entry point (server, worker, command line) does first: read the configuration, stopping with the
 * message that names the bad variable, then open the configured database with its migrations applied.
 */
export async function startProcess(
  options: { poolSize?: number; postgresRequiredBecause?: string } = {},
): Promise<{ config: Config; database: Database }> {
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
  // Checked before opening anything: PGlite's folder may belong to a running server, which must not be touched.
  if (options.postgresRequiredBecause && !config.DATABASE_URL) {
    console.error(options.postgresRequiredBecause);
    process.exit(1);
  }
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: path.join(config.dataDir, 'pglite'),
    poolSize: options.poolSize,
  });
  return { config, database };
}

/** SIGINT/SIGTERM close the app and the database once, then exit; a stuck close is cut off after 10 s. */
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
}

/** Runs an entry point's main, printing an unexpected failure and exiting non-zero. */
export function run(main: () => Promise<void>): void {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
