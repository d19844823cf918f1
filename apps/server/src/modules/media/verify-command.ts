import { loadConfig, type Config } from '../../config';
import type { Database } from '../../db';
import { ORPHAN_GRACE_MS, findOrphans } from './orphans';
import { MediaService } from './service';
import { S3Storage, createStorage, type Storage } from './storage';

/**
 * Fixity check from the command line: re-reads every stored original and compares its SHA-256 with the one
 * recorded at upload. Exit code 0 when all match, 1 when any original is missing or changed. Then lists the stored
 * files no row names (orphans: they change no record, so they do not change the exit code); `--prune` removes those
 * older than a day.
 */
export async function runMediaVerify(
  config: Config,
  database: Database,
  print: (line: string) => void = console.log,
  options: { prune?: boolean } = {},
): Promise<number> {
  const storage = createStorage(config);
  try {
    const report = await new MediaService(database.db, storage).verify();
    const name = (id: string) => (id.startsWith('capture:') ? id : `media ${id}`);
    for (const m of report.missing) print(`MISSING   ${name(m.id)}: ${m.key}`);
    for (const m of report.mismatched) print(`CHANGED   ${name(m.id)}: ${m.key} expected ${m.expected} got ${m.actual}`);
    print(`Checked ${report.checked} originals: ${report.ok} intact, ${report.mismatched.length} changed, ${report.missing.length} missing.`);
    await reportOrphans(database, storage, print, options.prune ?? false);
    return report.missing.length || report.mismatched.length ? 1 : 0;
  } finally {
    if (storage instanceof S3Storage) storage.destroy();
  }
}

async function reportOrphans(database: Database, storage: Storage, print: (line: string) => void, prune: boolean): Promise<void> {
  let count = 0;
  let bytes = 0;
  let removed = 0;
  for await (const orphan of findOrphans(database.db, storage)) {
    count++;
    bytes += orphan.size;
    const old = Date.now() - orphan.modified.getTime() > ORPHAN_GRACE_MS;
    if (prune && old) {
      await storage.delete(orphan.key);
      removed++;
      print(`REMOVED   ${orphan.key} (${orphan.size} bytes, ${orphan.modified.toISOString()})`);
    } else {
      const note = prune ? ' kept: written in the last 24 hours, it may belong to an upload under way' : '';
      print(`ORPHAN    ${orphan.key} (${orphan.size} bytes, ${orphan.modified.toISOString()})${note}`);
    }
  }
  const size = `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (prune) print(`${count} stored files no record names (${size}): ${removed} removed, ${count - removed} kept.`);
  else print(`${count} stored files no record names (${size})${count ? '; npm run media:verify -- --prune removes those older than a day' : ''}.`);
}

export const mediaVerifyCommand = {
  usage: 'media:verify [--prune]            re-hash every stored original, report missing or changed files and files nothing names (--prune: remove those a day old)',
  run: (args: string[], database: Database) => {
    const unknown = args.find((a) => a !== '--prune');
    if (unknown) {
      console.error(`media:verify: unknown option ${unknown} (only --prune)`);
      return Promise.resolve(2);
    }
    return runMediaVerify(loadConfig(), database, console.log, { prune: args.includes('--prune') });
  },
};
