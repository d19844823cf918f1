import { loadConfig, type Config } from '../../config';
import type { Database } from '../../db';
import { MediaService } from './service';
import { S3Storage, createStorage } from './storage';

/**
 * Fixity check from the command line: re-reads every stored original and compares its SHA-256 with the one
 * recorded at upload. Exit code 0 when all match, 1 when any original is missing or changed.
 */
export async function runMediaVerify(config: Config, database: Database, print: (line: string) => void = console.log): Promise<number> {
  const storage = createStorage(config);
  try {
    const report = await new MediaService(database.db, storage).verify();
    const name = (id: string) => (id.startsWith('capture:') ? id : `media ${id}`);
    for (const m of report.missing) print(`MISSING   ${name(m.id)}: ${m.key}`);
    for (const m of report.mismatched) print(`CHANGED   ${name(m.id)}: ${m.key} expected ${m.expected} got ${m.actual}`);
    print(`Checked ${report.checked} originals: ${report.ok} intact, ${report.mismatched.length} changed, ${report.missing.length} missing.`);
    return report.missing.length || report.mismatched.length ? 1 : 0;
  } finally {
    if (storage instanceof S3Storage) storage.destroy();
  }
}

export const mediaVerifyCommand = {
  usage: 'media:verify                      re-hash every stored original and report missing or changed files',
  run: (_args: string[], database: Database) => runMediaVerify(loadConfig(), database),
};
