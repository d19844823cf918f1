import { buildApp } from './app';
import { closeOnSignals, run, startProcess } from './bootstrap';

/**
 * `npm run worker`: runs the background jobs (video processing, campaign delivery...) in a process of its own,
 * without listening for HTTP. Any number of workers and servers may run together: each job is claimed once with a
 * row lock. It builds the same app as the server so every area registers its job handlers the same way.
 */
run(async () => {
  // PGlite is one process's database: with it, the server runs the jobs itself.
  const { config, database } = await startProcess({
    poolSize: 4,
    postgresRequiredBecause:
      'worker: set DATABASE_URL (PostgreSQL); with the built-in database the server process runs the jobs',
  });
  const app = await buildApp({ config, database, runJobs: true });
  await app.ready();
  app.log.info(`Worker ${process.pid} running jobs (database: ${database.driver}, storage: ${config.STORAGE})`);
  // Closing the app stops the queue after the job in progress; an interrupted one is queued again later.
  closeOnSignals(app, database, 'finishing the current job, then stopping');
});
