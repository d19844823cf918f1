import { buildApp } from './app';
import { closeOnSignals, run, startProcess } from './bootstrap';
import { seedSampleContent } from './seed/sample';
import { ensureInitialSuper } from './services/accounts';

/** The listening entry point: configuration, database (migrated), first accounts and sample content, then HTTP. */
run(async () => {
  const { config, database } = await startProcess();
  const app = await buildApp({ config, database });
  if (config.INITIAL_SUPER_EMAIL && config.INITIAL_SUPER_PASSWORD) {
    // Only when the account does not exist yet: restarting with the variables still set changes nothing.
    if (await ensureInitialSuper(app.db, config.INITIAL_SUPER_EMAIL, config.INITIAL_SUPER_PASSWORD)) {
      app.log.info(`Created the initial super account ${config.INITIAL_SUPER_EMAIL}`);
    }
  }
  if (config.sampleData) await seedSampleContent({ db: app.db, media: app.media, audit: app.audit, log: app.log });
  database.embedded?.keepRunning((message) => app.log.error(message));
  closeOnSignals(app, database, 'closing');
  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(`Site on ${config.publicUrl} (database: ${database.driver}, data: ${config.dataDir})`);
});
