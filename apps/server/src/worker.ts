import path from 'node:path';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db';

/**
 * `npm run worker`: runs the background jobs (video processing, campaign delivery...) in a process of its own,
 * without listening for HTTP. Any number of workers and servers may run together: each job is claimed once with a
 * row lock. It builds the same app as the server so every area registers its job handlers the same way.
 */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  if (!config.DATABASE_URL) {
    // PGlite is one process's database: the server already runs the jobs itself.
    console.error('worker: set DATABASE_URL (PostgreSQL); with the built-in database the server process runs the jobs');
    process.exit(1);
  }
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDir: path.join(config.dataDir, 'pglite'), poolSize: 4 });
  const app = await buildApp({ config, database, runJobs: true });
  await app.ready();
  app.log.info(`Worker ${process.pid} running jobs (database: ${database.driver}, storage: ${config.STORAGE})`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: finishing the current job, then stopping`);
    try {
      // Closing the app stops the queue after the job in progress; an interrupted one is queued again later.
      await app.close();
      await database.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
