/**
 * Backup and restore at size (issue 20): seeds a site with 100k records, their audit trail and 1,000 stored files,
 * backs it up, restores the archive into an empty database and file store, and checks the copy table by table and
 * file by file. Prints the time of each step, the archive's size and the process's peak memory.
 *
 *   node --import tsx bench/backup.ts                          # the embedded PostgreSQL server, in a temporary folder
 *   node --import tsx bench/backup.ts --records=100000 --files=1000
 *   node --import tsx bench/backup.ts --database-url=postgres://postgres@127.0.0.1:5432/postgres
 *                                     (creates bench_backup_<ts> and bench_restore_<ts> there, dropped after)
 *
 * Every generated record is titled "Backup bench record n" and marked as sample data: not real.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openDatabase, type Database } from '../apps/server/src/db/index';
import { writeBackup } from '../apps/server/src/modules/backup/backup';
import { listTables } from '../apps/server/src/modules/backup/catalog';
import { restoreBackup } from '../apps/server/src/modules/backup/restore';
import { LocalStorage } from '../apps/server/src/modules/media/storage';
import { canonicalJson } from '../apps/server/src/services/canonical-json';

const option = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=').slice(1).join('=') ?? fallback;
const RECORDS = Number(option('records', '100000'));
const FILES = Number(option('files', '1000'));
const DATABASE_URL = option('database-url', '');
const ORIGINAL_BYTES = 160 * 1024;
const COPY_BYTES = 40 * 1024;
const LABEL = 'Backup bench data - not real';

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const elapsed = (since: number) => (performance.now() - since) / 1000;
const log = (line: string) => console.error(line);

interface Site {
  database: Database;
  storage: LocalStorage;
  close: () => Promise<void>;
}

async function openSite(label: string, work: string): Promise<Site> {
  const dir = path.join(work, label);
  const storage = new LocalStorage(path.join(dir, 'media'));
  if (!DATABASE_URL) {
    const database = await openDatabase({ embeddedDataDir: dir, log });
    return { database, storage, close: () => database.close() };
  }
  const name = `bench_${label}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
  return {
    database,
    storage,
    close: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: DATABASE_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function seed(site: Site) {
  const batch = 10_000;
  for (let start = 1; start <= RECORDS; start += batch) {
    const end = Math.min(RECORDS, start + batch - 1);
    await site.database.query(
      `insert into records (category, title, subtitle, description, created_at, updated_at, approved, public, sample,
         full_name, location, happened_on, quantity, short_description)
       select case when n % 10 < 6 then 'victims' else 'massacres' end, 'Backup bench record ' || n, $3,
         repeat('${LABEL}. Generated text that gives the record the size of a real entry, about one kilobyte. ', 8) || n,
         timestamptz '2025-01-01 00:00:00+00' - n * interval '1 second', timestamptz '2025-01-01 00:00:00+00' - n * interval '1 second',
         n % 3 = 0, n % 7 <> 0, true, 'Bench person ' || n, 'Bench place (fictional)',
         timestamptz '2020-01-01 00:00:00+00' + (n % 1500) * interval '1 day', 1 + n % 50, '${LABEL}: ' || n
       from generate_series($1::int, $2::int) as n`,
      [start, end, LABEL],
    );
  }
  // One audit entry per record, chained as the server chains them (restore refuses a chain that does not verify).
  const ids = await site.database.query<{ id: string; created_at: Date }>(`select id, created_at from records order by created_at, id`);
  let prevHash = '0'.repeat(64);
  for (let i = 0; i < ids.length; i += 2000) {
    const rows = ids.slice(i, i + 2000).map(({ id, created_at }) => {
      const entry = { at: new Date(created_at), actorId: null, actorRole: 'super', action: 'create', category: 'victims', recordId: id, subject: null, changes: { title: { before: null, after: 'bench' } } };
      const content = canonicalJson({ ...entry, at: entry.at.toISOString() });
      const hash = createHash('sha256').update(prevHash).update('\n').update(content).digest('hex');
      const row = { at: entry.at.toISOString(), actor_role: entry.actorRole, action: entry.action, category: entry.category, record_id: id, changes: entry.changes, prev_hash: prevHash, hash };
      prevHash = hash;
      return row;
    });
    await site.database.query(
      `insert into audit_log (at, actor_role, action, category, record_id, changes, prev_hash, hash)
       select at, actor_role, action, category, record_id, changes, prev_hash, hash from json_populate_recordset(null::audit_log, $1::json)`,
      [JSON.stringify(rows)],
    );
  }
  // Half the files are originals (random bytes: photos do not compress), half their public copies.
  const victims = await site.database.query<{ id: string }>(`select id from records where category = 'victims' order by created_at desc limit $1`, [FILES / 2]);
  for (const [i, { id }] of victims.entries()) {
    const original = randomBytes(ORIGINAL_BYTES);
    const hash = sha256(original);
    const originalKey = `originals/${hash.slice(0, 2)}/${hash}`;
    const copyKey = `public/${hash.slice(0, 16)}-1200.webp`;
    await site.storage.put(originalKey, original);
    await site.storage.put(copyKey, randomBytes(COPY_BYTES));
    await site.database.query(
      `insert into media (record_id, kind, role, position, storage_key, sha256, size, mime, width, height, variants, public_key, caption)
       values ($1, 'image', 'cover', 0, $2, $3, $4, 'image/jpeg', 1600, 1200, $5::jsonb, $6, $7)`,
      [id, originalKey, hash, ORIGINAL_BYTES, JSON.stringify([{ width: 1200, format: 'webp', key: copyKey }]), copyKey, `${LABEL} ${i}`],
    );
  }
}

/** One SHA-256 per table over its rows as PostgreSQL prints them, in a fixed order. */
async function tableDigests(database: Database): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of await listTables(database.db)) {
    const [row] = await database.query<{ d: string | null; n: string }>(
      `select encode(sha256(convert_to(coalesce(string_agg(x::text, E'\\n' order by x::text), ''), 'UTF8')), 'hex') as d, count(*)::text as n
       from public."${table.name}" x`,
    );
    out[table.name] = `${row!.n} rows ${row!.d}`;
  }
  return out;
}

async function fileDigests(storage: LocalStorage): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const { key } of storage.list()) out.set(key, sha256(Buffer.concat(await (await storage.get(key)).toArray())));
  return out;
}

async function main() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'bench-backup-'));
  // The embedded server runs as its own system user when this runs as root: it must be able to reach its folder.
  chmodSync(work, 0o711);
  const archive = path.join(work, 'site.tar.gz');
  const source = await openSite('backup', work);
  let target: Site | null = null;
  try {
    let started = performance.now();
    await seed(source);
    log(`seeded ${RECORDS} records, ${RECORDS} audit entries, ${FILES} files in ${elapsed(started).toFixed(1)} s`);

    started = performance.now();
    const { manifest, archiveBytes } = await writeBackup(source.database, source.storage, archive);
    const backupSeconds = elapsed(started);
    const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);

    target = await openSite('restore', work);
    started = performance.now();
    const restored = await restoreBackup(target.database, target.storage, archive);
    const restoreSeconds = elapsed(started);

    started = performance.now();
    const [before, after] = [await tableDigests(source.database), await tableDigests(target.database)];
    const differing = Object.keys(before).filter((t) => before[t] !== after[t]);
    const [filesBefore, filesAfter] = [await fileDigests(source.storage), await fileDigests(target.storage)];
    const differingFiles = [...filesBefore.keys()].filter((k) => filesBefore.get(k) !== filesAfter.get(k)).length + Math.max(0, filesAfter.size - filesBefore.size);
    const identical = differing.length === 0 && differingFiles === 0 && filesBefore.size === FILES;

    console.log(`database: ${DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PostgreSQL server'}; ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(2)}`);
    console.log(`data:     ${RECORDS} records, ${rows} rows in ${manifest.tables.length} tables, ${manifest.files.length} files (${(manifest.files.reduce((n, f) => n + f.size, 0) / 1048576).toFixed(1)} MB)`);
    console.log(`backup:   ${backupSeconds.toFixed(1)} s, archive ${(archiveBytes / 1048576).toFixed(1)} MB`);
    console.log(`restore:  ${restoreSeconds.toFixed(1)} s (checks the archive, loads, verifies ${restored.auditEntries} audit entries)`);
    console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (this process: seeding, backup, restore and comparison together)`);
    console.log(`compare:  ${identical ? 'identical' : 'DIFFERENT'}: every table's rows and every file's bytes (${elapsed(started).toFixed(1)} s)${differing.length ? `; tables differing: ${differing.join(', ')}` : ''}${differingFiles ? `; files differing: ${differingFiles}` : ''}`);
    process.exitCode = identical ? 0 : 1;
  } finally {
    await target?.close();
    await source.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
