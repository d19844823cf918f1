import type { FastifyInstance } from 'fastify';
import type { Config } from './config';
import type { Database } from './db';
import { seedSampleContent } from './seed/sample';
import { ensureInitialSuper } from './services/accounts';

/**
 * What a start adds to a database that lacks it: INITIAL_SUPER_EMAIL's account and, outside production, the sample
 * content. Done under the migrations' lock, so servers started together on an empty database seed it once: the
 * first makes the records and prints the sample account's password, the others find them made.
 */
export async function prepareFirstStart(app: FastifyInstance, config: Config, database: Database): Promise<void> {
  await database.underMigrationLock(async () => {
    if (config.INITIAL_SUPER_EMAIL && config.INITIAL_SUPER_PASSWORD) {
      // Only when the account does not exist yet: restarting with the variables still set changes nothing.
      if (await ensureInitialSuper(app.db, config.INITIAL_SUPER_EMAIL, config.INITIAL_SUPER_PASSWORD)) {
        app.log.info(`Created the initial super account ${config.INITIAL_SUPER_EMAIL}`);
      }
    }
    if (config.sampleData) await seedSampleContent({ db: app.db, media: app.media, audit: app.audit, log: app.log });
  });
}
