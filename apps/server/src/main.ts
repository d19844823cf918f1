import { buildApp } from './app';
import { closeOnSignals, run, startProcess } from './bootstrap';
import { prepareFirstStart } from './first-start';

/** The listening entry point: configuration, database (migrated), first accounts and sample content, then HTTP. */
run(async () => {
  const { config, database } = await startProcess();
  const app = await buildApp({ config, database });
  await prepareFirstStart(app, config, database);
  database.embedded?.keepRunning((message) => app.log.error(message));
  closeOnSignals(app, database, 'closing');
  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(`Site on ${config.publicUrl} (database: ${database.driver}, data: ${config.dataDir})`);
});
