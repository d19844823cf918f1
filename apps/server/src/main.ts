import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db';
import { seedSampleContent } from './seed/sample';
import { ensureInitialSuper } from './services/accounts';
import path from 'node:path';

/** The listening entry point: configuration, database (migrated), sample content, then the server. */
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
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: path.join(config.dataDir, 'pglite'),
  });
  const app = await buildApp({ config, database });
  if (config.INITIAL_SUPER_EMAIL && config.INITIAL_SUPER_PASSWORD) {
    // Only when the account does not exist yet: restarting with the variables still set changes nothing.
    if (await ensureInitialSuper(app.db, config.INITIAL_SUPER_EMAIL, config.INITIAL_SUPER_PASSWORD)) {
      app.log.info(`Created the initial super account ${config.INITIAL_SUPER_EMAIL}`);
    }
  }
  if (config.sampleData) await seedSampleContent(app);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: closing`);
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

  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(`Site on ${config.publicUrl} (database: ${database.driver}, data: ${config.dataDir})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
