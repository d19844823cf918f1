import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { hasPgliteFolder, pgliteFolder, startProcess } from './bootstrap';
import { readSecret } from './cli-input';
import { dataDirOf, loadConfig } from './config';
import { migrateFromPglite } from './db/migrate-from-pglite';
import type { Database } from './db';
import { upsertSuper } from './services/accounts';
import { mediaVerifyCommand } from './modules/media/verify-command';
import { importContactsCommand } from './modules/campaign/cli';
import { backupCommand, restoreCommand } from './modules/backup/cli';
import { auditExportCommand, auditVerifyCommand } from './modules/audit/cli';
import { verifyCaptureCommand } from './modules/captures/cli';
import { packageCommand, verifyPackageCommand } from './modules/evidence-package/cli';
import { mirrorCommand, verifyMirrorCommand } from './modules/mirror/cli';
import { intakeKeyCommand } from './modules/testimony/cli';
import { staffPasswordProblem } from './modules/users/password-policy';

/**
 * Command line: `npm run admin -- <command> ...` with the same DATA_DIR / DATABASE_URL as the server.
 * Areas add their commands to `commands`.
 */
type Command = {
  usage: string;
  /** Checks and completes the arguments before any database is opened: the arguments to run with, or an exit code. */
  prepare?: (args: string[]) => Promise<string[] | number>;
} & (
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
  package: packageCommand,
  'verify-package': verifyPackageCommand,
  mirror: mirrorCommand,
  'verify-mirror': verifyMirrorCommand,
  'intake-key': intakeKeyCommand,
  'create-super': {
    usage: 'create-super <email> [password]  create or promote an active super account (no password: asked, or read from standard input)',
    async prepare(args) {
      const [email, given, ...extra] = args;
      if (!email || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || extra.length) {
        console.error('create-super: give a valid e-mail address (and the password on standard input, at the prompt, or after it)');
        return 2;
      }
      let password = given;
      try {
        password ??= await readSecret(`Password for ${email} (at least 10 characters, hard to guess, not shown): `);
      } catch {
        console.error('create-super: cancelled; nothing was changed');
        return 130;
      }
      // A super can do everything: its password is held to the staff rules, as a promotion in the site holds it.
      const problem = staffPasswordProblem(password, [email]);
      if (problem) {
        console.error(`create-super: ${problem}; nothing was changed`);
        return 2;
      }
      return [email, password];
    },
    async run([email, password], database) {
      const { created } = await upsertSuper(database.db, email!, password!);
      console.log(`${created ? 'Created' : 'Promoted'} super account ${email!.toLowerCase()}`);
      return 0;
    },
  },
};

async function main() {
  const [name, ...given] = process.argv.slice(2);
  const command = name ? commands[name] : undefined;
  if (!command) {
    console.error(`Usage: npm run admin -- <command>\n${Object.values(commands).map((c) => `  ${c.usage}`).join('\n')}`);
    process.exitCode = name ? 2 : 0;
    return;
  }
  const prepared = command.prepare ? await command.prepare(given) : given;
  if (typeof prepared === 'number') {
    process.exitCode = prepared;
    return;
  }
  if (command.offline) {
    process.exitCode = await command.run(prepared);
    return;
  }
  const before = folderEntries(dataDirOf());
  const { database } = await startProcess({ allowPgliteFolder: name === 'migrate-from-pglite' });
  if (database.embedded?.startedHere) console.error('The site is not running: started its database for this command, stopped after it.');
  let code = 1;
  try {
    code = await command.run(prepared, database);
  } finally {
    await database.close();
    // A refused command (a restore into a new folder, above all) leaves no new, empty database behind it.
    if (code !== 0 && database.embedded?.initialisedHere && database.embedded.pid() === null) removeAddedEntries(dataDirOf(), before);
    process.exitCode = code;
  }
}

/** The names in the data folder, or null when there is no such folder. */
function folderEntries(dir: string): Set<string> | null {
  return existsSync(dir) ? new Set(readdirSync(dir)) : null;
}

/** Removes what appeared in the folder since `before` (the folder itself when it did not exist). */
function removeAddedEntries(dir: string, before: Set<string> | null): void {
  if (!before) return rmSync(dir, { recursive: true, force: true });
  for (const entry of readdirSync(dir)) if (!before.has(entry)) rmSync(path.join(dir, entry), { recursive: true, force: true });
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  void main();
}
