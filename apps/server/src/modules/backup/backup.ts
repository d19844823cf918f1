import { once } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import * as tar from 'tar-stream';
import type { Database } from '../../db';
import type { Storage } from '../media/storage';
import {
  ArchiveError,
  FORMAT,
  FORMAT_VERSION,
  MANIFEST,
  MANIFEST_HASH,
  sha256,
  type FileManifest,
  type Manifest,
  type TableManifest,
} from './archive';
import { captureFiles } from '../../db/capture-files';
import { listTables, qualified, quoteIdent, readMigration, readSequences, rowsOf, type TableInfo, type Tx } from './catalog';

/** A table's NDJSON is cut into parts of about this size, so one part in memory is all a backup or restore holds. */
const PART_BYTES = 4 * 1024 * 1024;
const FETCH_ROWS = 2000;

interface BackupResult {
  manifest: Manifest;
  archiveBytes: number;
}

/**
 * Writes every table (read in one repeatable-read snapshot, so the site can keep writing) and every stored file to
 * `file`. The archive is written beside it as `<file>.part` and renamed when complete, so a file with the final name
 * is always a whole archive.
 */
export async function writeBackup(database: Database, storage: Storage, file: string): Promise<BackupResult> {
  if (existsSync(file)) throw new ArchiveError(`${file} already exists: a backup never overwrites an earlier one, give a new name`);
  const partFile = `${file}.part`;
  try {
    // Created here, exclusively: a second backup to the same name stops instead of writing into this one's file.
    // Readable by its owner only: it holds e-mail addresses, password hashes and originals with their GPS data.
    await (await open(partFile, 'wx', 0o600)).close();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new ArchiveError(`${partFile} exists: another backup to ${file} is running, or one was interrupted (then delete it)`);
    }
    throw err;
  }
  const pack = tar.pack();
  const output = pipeline(
    async function* () {
      for await (const chunk of pack as unknown as AsyncIterable<Buffer>) yield chunk;
    },
    createGzip({ level: 6 }),
    createWriteStream(partFile, { flags: 'r+' }),
  );
  output.catch((err: Error) => pack.destroy(err));
  let complete = false;
  try {
    const manifest = await writeEntries(database, storage, pack);
    pack.finalize();
    await output;
    // The archive is the copy that survives the machine: on disk before it gets its final name.
    const handle = await open(partFile, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    complete = true;
    if (existsSync(file)) throw new ArchiveError(`${file} appeared while the backup ran; the archive is kept as ${partFile}`);
    await rename(partFile, file);
    return { manifest, archiveBytes: (await stat(file)).size };
  } catch (err) {
    pack.destroy(err as Error);
    await output.catch(() => {});
    if (!complete) await rm(partFile, { force: true });
    throw err;
  }
}

async function writeEntries(database: Database, storage: Storage, pack: tar.Pack): Promise<Manifest> {
  const createdAt = new Date().toISOString();
  const snapshot = await database.db.transaction(
    async (tx) => {
      // The first statement fixes the snapshot; files are listed after it, so every file a row of the snapshot
      // names was stored before the listing (uploads store the file before the row commits).
      const at = (await rowsOf<{ at: string }>(tx, sql`select to_json(now())#>>'{}' as at`))[0]!.at;
      const stored = new Map<string, number>();
      for await (const { key, size } of storage.list()) stored.set(key, size);
      const migration = await readMigration(tx);
      const tableInfos = await listTables(tx);
      const sequences = await readSequences(tx);
      const originals = await referencedFiles(tx);
      const mtime = new Date(at);
      const tables: TableManifest[] = [];
      for (const table of tableInfos) tables.push(await writeTable(tx, pack, table, mtime));
      return { at, stored, migration, tables, sequences, originals, mtime };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );

  const problems: string[] = [];
  const files: FileManifest[] = [];
  for (const key of [...snapshot.stored.keys()].sort()) {
    const size = snapshot.stored.get(key)!;
    const digest = await addStreamEntry(pack, `files/${key}`, size, snapshot.mtime, await storage.get(key));
    files.push({ key, size, sha256: digest });
    const recorded = snapshot.originals.hashes.get(key);
    if (recorded && recorded !== digest) problems.push(`original ${key} no longer matches the SHA-256 recorded at upload (${recorded}); archived as it is now (${digest})`);
  }
  for (const key of snapshot.originals.keys) {
    if (!snapshot.stored.has(key)) problems.push(`file ${key} is named by the database but missing from storage`);
  }

  const manifest: Manifest = {
    format: FORMAT,
    version: FORMAT_VERSION,
    createdAt,
    snapshotAt: snapshot.at,
    migration: snapshot.migration,
    tables: snapshot.tables,
    sequences: snapshot.sequences,
    files,
    problems,
  };
  const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`);
  await addEntry(pack, MANIFEST, manifestBytes, snapshot.mtime);
  await addEntry(pack, MANIFEST_HASH, Buffer.from(`${sha256().update(manifestBytes).digest('hex')}\n`), snapshot.mtime);
  return manifest;
}

/** Streams a table's rows through a cursor, so memory holds one part however large the table is. */
async function writeTable(tx: Tx, pack: tar.Pack, table: TableInfo, mtime: Date): Promise<TableManifest> {
  const order = table.primaryKey.length ? ` order by ${table.primaryKey.map((c) => `x.${quoteIdent(c)}`).join(', ')}` : '';
  await tx.execute(sql.raw(`declare backup_rows no scroll cursor for select row_to_json(x)::text as j from ${qualified(table.name)} x${order}`));
  const tableHash = sha256();
  const manifest: TableManifest = { name: table.name, columns: table.columns, primaryKey: table.primaryKey, rows: 0, bytes: 0, sha256: '', parts: [] };
  let lines: string[] = [];
  let pending = 0;
  const flush = async () => {
    if (!lines.length) return;
    const bytes = Buffer.from(lines.join(''));
    const name = `tables/${table.name}.${String(manifest.parts.length + 1).padStart(5, '0')}.ndjson`;
    manifest.parts.push({ name, rows: lines.length, bytes: bytes.length, sha256: sha256().update(bytes).digest('hex') });
    tableHash.update(bytes);
    manifest.rows += lines.length;
    manifest.bytes += bytes.length;
    lines = [];
    pending = 0;
    await addEntry(pack, name, bytes, mtime);
  };
  for (;;) {
    const batch = await rowsOf<{ j: string }>(tx, sql.raw(`fetch forward ${FETCH_ROWS} from backup_rows`));
    if (!batch.length) break;
    for (const { j } of batch) {
      // One row per line: a raw line break (only a json-typed column could hold one) would split a row.
      if (j.includes('\n')) throw new Error(`a row of ${table.name} has a line break in its JSON; the backup cannot store it as one line`);
      lines.push(`${j}\n`);
      pending += j.length + 1;
    }
    if (pending >= PART_BYTES) await flush();
  }
  await flush();
  await tx.execute(sql.raw('close backup_rows'));
  manifest.sha256 = tableHash.digest('hex');
  return manifest;
}

/** Keys the snapshot's media rows and link captures name, and the SHA-256 recorded when each original was stored. */
async function referencedFiles(tx: Tx): Promise<{ keys: Set<string>; hashes: Map<string, string> }> {
  const rows = await rowsOf<{ storage_key: string; sha256: string; public_key: string | null; variant_keys: string[] | null }>(
    tx,
    sql`select storage_key, sha256, public_key,
          (select array_agg(v->>'key') from jsonb_array_elements(variants) v where v ? 'key') as variant_keys
        from media`,
  );
  const keys = new Set<string>();
  const hashes = new Map<string, string>();
  for (const row of rows) {
    keys.add(row.storage_key);
    hashes.set(row.storage_key, row.sha256);
    if (row.public_key) keys.add(row.public_key);
    for (const key of row.variant_keys ?? []) keys.add(key);
  }
  for (const file of await captureFiles(tx)) {
    keys.add(file.key);
    hashes.set(file.key, file.sha256);
  }
  return { keys, hashes };
}

/** Adds an entry from memory; resolves once the pack has taken it (so a slow disk holds the writer back). */
function addEntry(pack: tar.Pack, name: string, data: Buffer, mtime: Date): Promise<void> {
  return new Promise((resolve, reject) => {
    pack.entry({ name, size: data.length, mtime }, data, (err) => (err ? reject(err) : resolve()));
  });
}

/** Adds an entry streamed from storage; returns the SHA-256 of the bytes written. */
async function addStreamEntry(pack: tar.Pack, name: string, size: number, mtime: Date, body: AsyncIterable<Buffer>): Promise<string> {
  let sink!: ReturnType<tar.Pack['entry']>;
  const finished = new Promise<void>((resolve, reject) => {
    sink = pack.entry({ name, size, mtime }, (err) => (err ? reject(err) : resolve()));
  });
  finished.catch(() => {});
  const hash = sha256();
  let written = 0;
  const changed = () => new Error(`${name.slice('files/'.length)} changed size while it was backed up (listed ${size} bytes); run the backup again`);
  for await (const chunk of body) {
    written += chunk.length;
    if (written > size) {
      sink.destroy(changed());
      throw changed();
    }
    hash.update(chunk);
    if (!sink.write(chunk)) await Promise.race([once(sink as never, 'drain'), finished]);
  }
  if (written !== size) {
    sink.destroy(changed());
    throw changed();
  }
  sink.end(undefined);
  await finished;
  return hash.digest('hex');
}
