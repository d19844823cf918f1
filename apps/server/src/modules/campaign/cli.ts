import path from 'node:path';
import { ZodError } from 'zod';
import type { Database } from '../../db';
import { AuditService } from '../../services/audit';
import { importDirectory, readDirectoryFile, SHIPPED_DIRECTORY_FILE } from './directory';

/** `npm run admin -- import-contacts [file] [--force]`: refreshes the representatives' directory (see directory/PROVENANCE.md). */
export const importContactsCommand = {
  usage: 'import-contacts [file] [--force]   load representatives (default: the shipped directory); --force overwrites admin corrections',
  async run(args: string[], database: Database): Promise<number> {
    const force = args.includes('--force');
    const unknown = args.filter((a) => a.startsWith('--') && a !== '--force');
    if (unknown.length) {
      console.error(`import-contacts: unknown option ${unknown.join(' ')}`);
      return 2;
    }
    // npm runs the script in apps/server; a relative path means relative to where the user typed the command.
    const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), args.find((a) => !a.startsWith('--')) ?? SHIPPED_DIRECTORY_FILE);
    let data;
    try {
      data = readDirectoryFile(file);
    } catch (err) {
      const reason =
        err instanceof ZodError
          ? err.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')
          : err instanceof Error
            ? err.message
            : String(err);
      console.error(`import-contacts: ${file} is not a valid directory file: ${reason}`);
      return 1;
    }
    const result = await importDirectory(database.db, new AuditService(database.db), data, { force });
    console.log(
      `Imported ${file}: ${result.inserted} added, ${result.updated} updated, ${result.unchanged} unchanged, ` +
        `admin corrections: ${result.keptCorrected} kept, ${result.overwrittenCorrections} overwritten; ${result.retired} no longer listed`,
    );
    return 0;
  },
};
