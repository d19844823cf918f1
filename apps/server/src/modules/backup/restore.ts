import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db';
import { AuditService } from '../../services/audit';
import type { Storage } from '../media/storage';
import {
  ArchiveError,
  FORMAT,
  FORMAT_VERSION,
  MANIFEST,
  MANIFEST_HASH,
  digesting,
  drain,
  newDigest,
  nodeStream,
  readAll,
  readArchive,
  sha256,
  type EntryDigest,
  type Manifest,
  type PartManifest,
  type TableManifest,
} from './archive';
import { captureFiles } from '../../db/capture-files';
import { enabledUserTriggers, listTables, qualified, quoteIdent, readMigration, rowsOf, type Tx } from './catalog';

interface CheckedArchive {
  manifest: Manifest;
  manifestBytes: Buffer;
}

const TABLE_PART = /^tables\/(.+)\.\d{5}\.ndjson$/;

/**
 * Reads the whole archive once and checks it against its manifest: the gzip and tar framing, the manifest's own
 * hash, and every table part's and file's size, SHA-256 and row count. Writes nothing.
 */
export async function checkArchive(file: string): Promise<CheckedArchive> {
  const digests = new Map<string, EntryDigest>();
  const tableHashes = new Map<string, ReturnType<typeof sha256>>();
  let manifestBytes: Buffer | null = null;
  let manifestHash: string | null = null;
  await readArchive(file, async (header, body) => {
    if (manifestHash !== null) throw new ArchiveError(`the archive goes on after its manifest (${header.name}): it is not a backup as this site writes them`);
    if (header.type !== 'file') throw new ArchiveError(`the archive holds a ${header.type} entry (${header.name}); backups hold only files`);
    if (header.name === MANIFEST) {
      manifestBytes = await readAll(body);
      return;
    }
    if (header.name === MANIFEST_HASH) {
      manifestHash = (await readAll(body)).toString().trim();
      return;
    }
    if (manifestBytes) throw new ArchiveError(`the archive goes on after its manifest (${header.name}): it is not a backup as this site writes them`);
    if (digests.has(header.name)) throw new ArchiveError(`the archive holds ${header.name} twice`);
    const digest = newDigest(header.name);
    const table = TABLE_PART.exec(header.name)?.[1];
    let tableHash: ReturnType<typeof sha256> | undefined;
    if (table) {
      tableHash = tableHashes.get(table) ?? sha256();
      tableHashes.set(table, tableHash);
    }
    await drain(digesting(body, digest, tableHash));
    digests.set(header.name, digest);
  });
  if (!manifestBytes || manifestHash === null) {
    throw new ArchiveError('the archive has no manifest at its end: it is cut short, or it is not a backup of this site');
  }
  const bytes: Buffer = manifestBytes;
  if (sha256().update(bytes).digest('hex') !== manifestHash) throw new ArchiveError('the archive\'s manifest does not match its recorded SHA-256: the archive is damaged');
  let manifest: Manifest;
  try {
    manifest = JSON.parse(bytes.toString()) as Manifest;
  } catch {
    throw new ArchiveError('the archive\'s manifest is not readable JSON: the archive is damaged');
  }
  if (manifest.format !== FORMAT) throw new ArchiveError('the archive is not a backup of this site (unknown format)');
  if (manifest.version !== FORMAT_VERSION) throw new ArchiveError(`the archive is of backup format ${manifest.version}; this version of the site reads format ${FORMAT_VERSION}`);

  const faults: string[] = [];
  const listed = new Set<string>();
  const compare = (name: string, expected: { size: number; sha256: string; rows?: number }) => {
    listed.add(name);
    const got = digests.get(name);
    if (!got) faults.push(`${name} is missing`);
    else if (got.size !== expected.size) faults.push(`${name} has ${got.size} bytes, the manifest says ${expected.size}`);
    else if (got.sha256 !== expected.sha256) faults.push(`${name} does not match its SHA-256`);
    else if (expected.rows !== undefined && got.lines !== expected.rows) faults.push(`${name} has ${got.lines} rows, the manifest says ${expected.rows}`);
  };
  for (const table of manifest.tables) {
    for (const part of table.parts) compare(part.name, { size: part.bytes, sha256: part.sha256, rows: part.rows });
    const rows = table.parts.reduce((n, p) => n + p.rows, 0);
    if (rows !== table.rows) faults.push(`table ${table.name}: its parts hold ${rows} rows, the manifest says ${table.rows}`);
    const whole = table.parts.length ? tableHashes.get(table.name)?.digest('hex') : sha256().digest('hex');
    if (whole !== table.sha256) faults.push(`table ${table.name} does not match its SHA-256`);
  }
  for (const file of manifest.files) compare(`files/${file.key}`, file);
  for (const name of digests.keys()) if (!listed.has(name)) faults.push(`${name} is not in the manifest`);
  if (faults.length) {
    const shown = faults.slice(0, 10).join('; ');
    throw new ArchiveError(`the archive does not match its manifest: ${shown}${faults.length > 10 ? `; and ${faults.length - 10} more` : ''}`);
  }
  return { manifest, manifestBytes: bytes };
}

interface RestoreResult {
  manifest: Manifest;
  rows: number;
  files: number;
  auditEntries: number;
}

/**
 * Restores an archive into an empty database and an empty file store. The archive is checked whole first; the rows
 * are then loaded in one transaction that commits only when every part's hash, every table's row count, every
 * original's recorded hash and the audit chain check out. Files written before a failure are removed again.
 */
export async function restoreBackup(database: Database, storage: Storage, file: string, log: (line: string) => void = () => {}): Promise<RestoreResult> {
  const checked = await checkArchive(file);
  const { manifest } = checked;
  log(`Archive checked: ${manifest.tables.length} tables, ${manifest.files.length} files, made ${manifest.createdAt}.`);
  await checkTarget(database, storage, manifest);

  const written: string[] = [];
  try {
    const auditEntries = await database.db.transaction(async (tx) => {
      const triggers = await enabledUserTriggers(tx);
      // Rows are restored as they were, counters and copied columns included; the triggers would count them twice.
      for (const t of triggers) await tx.execute(sql.raw(`alter table ${qualified(t.table)} disable trigger ${quoteIdent(t.name)}`));
      await loadEntries(tx, storage, file, checked, written);
      for (const s of manifest.sequences) {
        await tx.execute(sql`select setval(${qualified(s.name)}::regclass, ${s.lastValue}::bigint, ${s.isCalled})`);
      }
      for (const t of triggers) await tx.execute(sql.raw(`alter table ${qualified(t.table)} enable trigger ${quoteIdent(t.name)}`));
      await checkLoaded(tx, manifest);
      const audit = await new AuditService(tx).verify();
      if (!audit.ok) {
        throw new ArchiveError(`the audit chain does not verify after loading (entry ${audit.firstBrokenSeq}: ${audit.reason}); nothing was restored`);
      }
      return audit.entries;
    });
    return { manifest, rows: manifest.tables.reduce((n, t) => n + t.rows, 0), files: written.length, auditEntries };
  } catch (err) {
    for (const key of written) await storage.delete(key).catch(() => {});
    throw err;
  }
}

/** Same schema version and columns, and nothing there yet: a restore never merges into or overwrites data. */
async function checkTarget(database: Database, storage: Storage, manifest: Manifest): Promise<void> {
  const migration = await readMigration(database.db);
  if (migration.hash !== manifest.migration.hash || migration.count !== manifest.migration.count) {
    throw new ArchiveError(
      `the archive was made at schema migration ${manifest.migration.count} (${manifest.migration.hash.slice(0, 12)}), ` +
        `this database is at ${migration.count} (${migration.hash.slice(0, 12)}): restore with the version of the site that made the backup`,
    );
  }
  const tables = await listTables(database.db);
  const describe = (t: { name: string; columns: { name: string; type: string }[] }) =>
    `${t.name}(${t.columns.map((c) => `${c.name} ${c.type}`).join(', ')})`;
  const here = new Map(tables.map((t) => [t.name, describe(t)]));
  for (const t of manifest.tables) {
    if (here.get(t.name) !== describe(t)) throw new ArchiveError(`table ${t.name} differs between the archive and this database: ${describe(t)} against ${here.get(t.name) ?? 'no such table'}`);
  }
  for (const name of here.keys()) {
    if (!manifest.tables.some((t) => t.name === name)) throw new ArchiveError(`table ${name} of this database is not in the archive`);
  }

  const filled: string[] = [];
  for (const t of tables) {
    const n = (await rowsOf<{ n: string }>(database.db, sql.raw(`select count(*)::text as n from ${qualified(t.name)}`)))[0]!.n;
    if (Number(n) > 0) filled.push(`${t.name} (${n} row${n === '1' ? '' : 's'})`);
  }
  const files: string[] = [];
  for await (const { key } of storage.list()) {
    files.push(key);
    if (files.length >= 3) break;
  }
  if (filled.length || files.length) {
    const what = [
      filled.length ? `the database holds ${filled.join(', ')}` : '',
      files.length ? `the file store holds ${files.join(', ')}${files.length >= 3 ? ' and maybe more' : ''}` : '',
    ].filter(Boolean);
    throw new ArchiveError(
      `refusing to restore into a target that is not empty: ${what.join('; ')}. ` +
        'Restore into a new data folder (DATA_DIR), or a new empty database (DATABASE_URL) and an empty bucket; nothing was changed.',
    );
  }
}

/** The second reading: each part is checked against the manifest before its rows are inserted. */
async function loadEntries(tx: Tx, storage: Storage, file: string, checked: CheckedArchive, written: string[]): Promise<void> {
  const { manifest } = checked;
  const parts = new Map<string, { table: TableManifest; part: PartManifest }>();
  for (const table of manifest.tables) for (const part of table.parts) parts.set(part.name, { table, part });
  const files = new Map(manifest.files.map((f) => [`files/${f.key}`, f]));
  const seen = new Set<string>();
  let originalTypes: Map<string, string> | undefined;
  const changed = (name: string) => new ArchiveError(`${name} changed since the archive was checked moments ago; nothing was restored`);

  await readArchive(file, async (header, body) => {
    const digest = newDigest(header.name);
    seen.add(header.name);
    const part = parts.get(header.name);
    const stored = files.get(header.name);
    if (part) {
      const bytes = await readAll(digesting(body, digest));
      if (digest.sha256 !== part.part.sha256) throw changed(header.name);
      await insertPart(tx, part.table, bytes);
    } else if (stored) {
      // Tables come before files in the archive, so the media rows (and the type each original was uploaded as) are loaded.
      originalTypes ??= new Map(
        (await rowsOf<{ storage_key: string; mime: string }>(tx, sql`select storage_key, mime from media`)).map((r) => [r.storage_key, r.mime]),
      );
      written.push(stored.key);
      await storage.put(stored.key, nodeStream(digesting(body, digest)), originalTypes.get(stored.key) ?? contentTypeOf(stored.key), header.size);
      if (digest.sha256 !== stored.sha256) throw changed(header.name);
    } else if (header.name === MANIFEST) {
      if (!(await readAll(body)).equals(checked.manifestBytes)) throw changed(header.name);
    } else {
      await drain(body);
      if (header.name !== MANIFEST_HASH) throw changed(header.name);
    }
  });
  for (const name of [...parts.keys(), ...files.keys(), MANIFEST]) if (!seen.has(name)) throw changed(name);
}

/** One part's rows in one statement: the database reads the JSON back into the table's own column types. */
async function insertPart(tx: Tx, table: TableManifest, ndjson: Buffer): Promise<void> {
  const text = ndjson.toString('utf8');
  const json = `[${text.slice(0, -1).replaceAll('\n', ',')}]`;
  const columns = table.columns.filter((c) => !c.generated).map((c) => quoteIdent(c.name)).join(', ');
  try {
    await tx.execute(
      sql`${sql.raw(`insert into ${qualified(table.name)} (${columns}) overriding system value select ${columns} from json_populate_recordset(null::${qualified(table.name)},`)} ${json}::json)`,
    );
  } catch (err) {
    // The driver's error carries the statement and its megabytes of parameters; the database's own message is the news.
    const cause = ((err as { cause?: Error }).cause ?? err) as Error & { detail?: string };
    throw new ArchiveError(`rows of table ${table.name} could not be loaded: ${cause.message}${cause.detail ? ` (${cause.detail})` : ''}; nothing was restored`);
  }
}

/** Row counts as the manifest says, and every original as its media row (or link capture) recorded it when stored. */
async function checkLoaded(tx: Tx, manifest: Manifest): Promise<void> {
  for (const table of manifest.tables) {
    const n = (await rowsOf<{ n: string }>(tx, sql.raw(`select count(*)::text as n from ${qualified(table.name)}`)))[0]!.n;
    if (Number(n) !== table.rows) throw new ArchiveError(`table ${table.name} holds ${n} rows after loading, the archive ${table.rows}; nothing was restored`);
  }
  const fileHashes = new Map(manifest.files.map((f) => [f.key, f.sha256]));
  const known = manifest.problems.join('\n');
  const originals = [
    ...(await rowsOf<{ storage_key: string; sha256: string }>(tx, sql`select storage_key, sha256 from media`)).map((f) => ({ ...f, row: 'media row' })),
    ...(await captureFiles(tx)).map((f) => ({ storage_key: f.key, sha256: f.sha256, row: 'link capture' })),
  ];
  for (const { storage_key: key, sha256: recorded, row } of originals) {
    const archived = fileHashes.get(key);
    // A problem the backup found in the source and reported is restored as it was; any other one is refused.
    if (archived !== recorded && !known.includes(key)) {
      throw new ArchiveError(`original ${key} ${archived ? 'does not match' : 'is missing from the archive, against'} the SHA-256 its ${row} recorded; nothing was restored`);
    }
  }
}

const CONTENT_TYPES: Record<string, string> = {
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mhtml': 'multipart/related',
  '.json': 'application/json',
};

function contentTypeOf(key: string): string {
  return CONTENT_TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream';
}
