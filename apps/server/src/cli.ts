import path from 'node:path';
import { hasPgliteFolder, pgliteFolder, startProcess } from './bootstrap';
import { loadConfig } from './config';
import { migrateFromPglite } from './db/migrate-from-pglite';
import type { Database } from './db';
import { upsertSuper } from './services/accounts';
import { mediaVerifyCommand } from './modules/media/verify-command';
import { importContactsCommand } from './modules/campaign/cli';
import { backupCommand, restoreCommand } from './modules/backup/cli';
import { auditExportCommand, auditVerifyCommand } from './modules/audit/cli';
import { verifyCaptureCommand } from './modules/captures/cli';

/**
 * Command line: `npm run admin -- <command> ...` with the same DATA_DIR / DATABASE_URL as the server.
 * Areas add their commands to `commands`.
 */
type Command = { usage: string } & (
  | { offline?: false; run: (args: string[], database: Database) => Promise<number> }
  /** Needs no database (checks a file): none is started for it. */
  | { offline: true; run: (args: string[]) => Promise<number> }
);

export const commands: Record<string, Command> = {
  'migrate-from-pglite': {
    usage: 'migrate-from-pglite               move the records of an earlier PGlite data folder (DATA_DIR/pglite) into the database',
    async run(_args, database) {
      const config = loadConfig();
      if (!hasPgliteFolder(config.dataDir)) {
        console.error(`migrate-from-pglite: there is no PGlite database in ${pgliteFolder(config.dataDir)}`);
        return 2;
      }
      try {
        await migrateFromPglite(pgliteFolder(config.dataDir), database);
        return 0;
      } catch (err) {
        console.error(`migrate-from-pglite: nothing was changed: ${(err as Error).message}`);
        return 1;
      }
    },
  },
  'media:verify': mediaVerifyCommand,
  'import-contacts': importContactsCommand,
  backup: backupCommand,
  restore: restoreCommand,
  'audit:export': auditExportCommand,
  'audit:verify': auditVerifyCommand,
  'verify-capture': verifyCaptureCommand,
  'create-super': {
    usage: 'create-super <email> <password>   create or promote an active super account',
    async run(args, database) {
      const [email, password] = args;
      if (!email || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
        console.error('create-super: give a valid e-mail address');
        return 2;
      }
      if (!password || password.length < 10) {
        console.error('create-super: the password must be at least 10 characters');
        return 2;
      }
      const { created } = await upsertSuper(database.db, email, password);
      console.log(`${created ? 'Created' : 'Promoted'} super account ${email.toLowerCase()}`);
      return 0;
    },
  },
};

async function main() {
  const [name, ...args] = process.argv.slice(2);
  const command = name ? commands[name] : undefined;
  if (!command) {
    console.error(`Usage: npm run admin -- <command>\n${Object.values(commands).map((c) => `  ${c.usage}`).join('\n')}`);
    process.exit(name ? 2 : 0);
  }
  if (command.offline) {
    process.exitCode = await command.run(args);
    return;
  }
  const { database } = await startProcess({ allowPgliteFolder: name === 'migrate-from-pglite' });
  if (database.embedded?.startedHere) console.error('The site is not running: started its database for this command, stopped after it.');
  try {
    process.exitCode = await command.run(args, database);
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  void main();
}
