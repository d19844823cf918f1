import { performance } from 'node:perf_hooks';
import { loadConfig } from '../../config';
import type { Database } from '../../db';
import { S3Storage, createStorage, type Storage } from '../media/storage';
import { ArchiveError } from './archive';
import { writeBackup } from './backup';
import { checkArchive, restoreBackup } from './restore';
import { adoptSigningKey } from './signing-key';

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const count = (n: number, noun: string, plural = `${noun}s`) => `${n} ${n === 1 ? noun : plural}`;
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function withStorage(work: (storage: Storage) => Promise<number>): Promise<number> {
  const storage = createStorage(loadConfig());
  try {
    return await work(storage);
  } catch (err) {
    // A refused or damaged archive is an answer for the operator, not a crash.
    if (err instanceof ArchiveError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  } finally {
    if (storage instanceof S3Storage) storage.destroy();
  }
}

export async function runBackup(args: string[], database: Database, print: (line: string) => void = console.log): Promise<number> {
  const [file] = args;
  if (!file || args.length !== 1) {
    console.error('backup: give the archive file to write, e.g. backup /mnt/backups/evidence-2025-01-31.tar.gz');
    return 2;
  }
  return withStorage(async (storage) => {
    const started = performance.now();
    const { manifest, archiveBytes } = await writeBackup(database, storage, file);
    const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
    const fileBytes = manifest.files.reduce((n, f) => n + f.size, 0);
    print(
      `Backup written to ${file}: ${count(rows, 'row')} in ${count(manifest.tables.length, 'table')} and ${count(manifest.files.length, 'file')} ` +
        `(${megabytes(fileBytes)}), archive ${megabytes(archiveBytes)}, database snapshot at ${manifest.snapshotAt}, in ${seconds(started)}.`,
    );
    for (const problem of manifest.problems) print(`PROBLEM   ${problem}`);
    if (manifest.problems.length) {
      print(`The source has ${manifest.problems.length} problem(s), recorded in the archive's manifest: run npm run media:verify.`);
      return 1;
    }
    return 0;
  });
}

export async function runRestore(args: string[], database: Database, print: (line: string) => void = console.log): Promise<number> {
  const checkOnly = args.includes('--check');
  const files = args.filter((a) => a !== '--check');
  if (files.length !== 1) {
    console.error('restore: give the archive file, e.g. restore /mnt/backups/evidence-2025-01-31.tar.gz (add --check to only check it)');
    return 2;
  }
  const file = files[0]!;
  return withStorage(async (storage) => {
    const started = performance.now();
    if (checkOnly) {
      const { manifest } = await checkArchive(file);
      const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
      print(`${file} is intact: ${count(rows, 'row')} in ${count(manifest.tables.length, 'table')} and ${count(manifest.files.length, 'file')} match the manifest of ${manifest.createdAt} (${seconds(started)}).`);
      return 0;
    }
    const result = await restoreBackup(database, storage, file, print);
    print(
      `Restored ${file}: ${count(result.rows, 'row')} in ${count(result.manifest.tables.length, 'table')} and ${count(result.files, 'file')}, every SHA-256 checked, ` +
        `audit chain verified (${count(result.auditEntries, 'entry', 'entries')}), in ${seconds(started)}. Database snapshot of ${result.manifest.snapshotAt}.`,
    );
    for (const problem of result.manifest.problems) print(`PROBLEM IN THE SOURCE   ${problem}`);
    await adoptSigningKey(database, loadConfig(), print);
    return 0;
  });
}

export const backupCommand = {
  usage: 'backup <file>                     write every table and stored file to one checked archive (the site may keep running)',
  run: (args: string[], database: Database) => runBackup(args, database),
};

export const restoreCommand = {
  usage: 'restore <file> [--check]          restore an archive into an empty database and file store (--check: only check it)',
  run: (args: string[], database: Database) => runRestore(args, database),
};
