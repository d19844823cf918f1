import { buildApp } from './app';
import { closeOnSignals, run, startProcess } from './bootstrap';

/**
 * `npm run worker`: runs the background jobs (video processing, link captures, campaign delivery...) in a process of its own,
 * without listening for HTTP. Any number of workers and servers may run together: each job is claimed once with a
 * row lock. It builds the same app as the server so every area registers its job handlers the same way.
 */
run(async () => {
  const { config, database } = await startProcess({ poolSize: 4 });
  const app = await buildApp({ config, database, runJobs: true });
  await app.ready();
  app.log.info(`Worker ${process.pid} running jobs (database: ${database.driver}, storage: ${config.STORAGE})`);
  // Closing the app stops the queue after the job in progress; an interrupted one is queued again later.
  database.embedded?.keepRunning((message) => app.log.error(message));
  closeOnSignals(app, database, 'finishing the current job, then stopping');
});
