/**
 * Backup and restore at size: seeds a site with 100k records, their audit trail and 1,000 stored files,
 * runs `npm run admin -- backup` beside it and `npm run admin -- restore` into a data folder (or database) nothing
 * has used yet, each as a process of its own, and checks the copy table by table and file by file. Prints each
 * command's time and peak memory and the archive's size.
 *
 *   node --import tsx bench/backup.ts                          # the embedded PostgreSQL server, in a temporary folder
 *   node --import tsx bench/backup.ts --records=100000 --files=1000
 *   node --import tsx bench/backup.ts --database-url=postgres://postgres@127.0.0.1:5432/postgres
 *                                     (creates bench_backup_<ts> and bench_restore_<ts> there, dropped after)
 *
 * Every generated record is titled "Backup bench record n" and marked as sample data: not real.
 */
import { createHash, randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openDatabase, type Database } from '../apps/server/src/db/index';
import { listTables } from '../apps/server/src/modules/backup/catalog';
import { LocalStorage } from '../apps/server/src/modules/media/storage';
import { canonicalJson } from '../apps/server/src/services/canonical-json';

const option = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=').slice(1).join('=') ?? fallback;
const RECORDS = Number(option('records', '100000'));
const FILES = Number(option('files', '1000'));
const DATABASE_URL = option('database-url', '');
const ORIGINAL_BYTES = 160 * 1024;
const COPY_BYTES = 40 * 1024;
const LABEL = 'Backup bench data - not real';
const ROOT = path.resolve(import.meta.dirname, '..');

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const elapsed = (since: number) => (performance.now() - since) / 1000;
const log = (line: string) => console.error(line);

interface Site {
  database: Database;
  storage: LocalStorage;
  close: () => Promise<void>;
}

/** A data folder, and with --database-url an empty database of its own: what the admin commands are pointed at. */
interface SiteLocation {
  env: Record<string, string>;
  open: () => Promise<Site>;
  drop: () => Promise<void>;
}

async function siteLocation(label: string, work: string): Promise<SiteLocation> {
  const dir = path.join(work, label);
  mkdirSync(dir, { mode: 0o711 });
  const storage = new LocalStorage(path.join(dir, 'media'));
  if (!DATABASE_URL) {
    return {
      env: { DATA_DIR: dir },
      open: async () => {
        const database = await openDatabase({ embeddedDataDir: dir, log });
        return { database, storage, close: () => database.close() };
      },
      drop: async () => {},
    };
  }
  const name = `bench_${label}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dir, DATABASE_URL: url.toString() },
    open: async () => {
      const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
      return { database, storage, close: () => database.close() };
    },
    drop: async () => {
      const c = new pg.Client({ connectionString: DATABASE_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * Runs `npm run admin -- <args>` as the operator would (a process of its own), returning what it printed and its peak
 * memory (GNU time's maximum resident set size).
 */
function admin(args: string[], env: Record<string, string>): { output: string; peakMb: number | null } {
  const command = [process.execPath, '--import', 'tsx', path.join(ROOT, 'apps/server/src/cli.ts'), ...args];
  const timed = existsSync('/usr/bin/time');
  const result = spawnSync(timed ? '/usr/bin/time' : command[0]!, timed ? ['-f', 'peak-rss-kb %M', ...command] : command.slice(1), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0) throw new Error(`admin ${args.join(' ')} failed (exit ${result.status}):\n${output}`);
  const peak = /peak-rss-kb (\d+)/.exec(output);
  return { output: output.replace(/peak-rss-kb \d+\n?/, '').trim(), peakMb: peak ? Number(peak[1]) / 1024 : null };
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
  const sourceLocation = await siteLocation('backup', work);
  const targetLocation = await siteLocation('restore', work);
  const source = await sourceLocation.open();
  let target: Site | null = null;
  try {
    let started = performance.now();
    await seed(source);
    log(`seeded ${RECORDS} records, ${RECORDS} audit entries, ${FILES} files in ${elapsed(started).toFixed(1)} s`);

    // The site's database stays open here, as a running site's would.
    started = performance.now();
    const backup = admin(['backup', archive], sourceLocation.env);
    const backupSeconds = elapsed(started);
    const archiveBytes = statSync(archive).size;

    // Into a data folder (or database) nothing has used yet: the command creates and migrates it.
    started = performance.now();
    const restore = admin(['restore', archive], targetLocation.env);
    const restoreSeconds = elapsed(started);
    target = await targetLocation.open();

    started = performance.now();
    const [before, after] = [await tableDigests(source.database), await tableDigests(target.database)];
    const differing = Object.keys(before).filter((t) => before[t] !== after[t]);
    const [filesBefore, filesAfter] = [await fileDigests(source.storage), await fileDigests(target.storage)];
    const differingFiles = [...filesBefore.keys()].filter((k) => filesBefore.get(k) !== filesAfter.get(k)).length + Math.max(0, filesAfter.size - filesBefore.size);
    const identical = differing.length === 0 && differingFiles === 0 && filesBefore.size === FILES;
    const rows = Object.values(before).reduce((n, d) => n + Number(d.split(' ')[0]), 0);
    const mb = (n: number | null) => (n === null ? 'n/a' : `${n.toFixed(0)} MB`);

    console.log(`database: ${DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PostgreSQL server'}; ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(2)}`);
    console.log(`data:     ${RECORDS} records, ${rows} rows in ${Object.keys(before).length} tables, ${filesBefore.size} files`);
    console.log(`backup:   ${backupSeconds.toFixed(1)} s for the command, archive ${(archiveBytes / 1048576).toFixed(1)} MB, peak memory ${mb(backup.peakMb)}`);
    console.log(`          ${/^Backup written.*$/m.exec(backup.output)?.[0]}`);
    console.log(`restore:  ${restoreSeconds.toFixed(1)} s for the command (${DATABASE_URL ? 'migrates the new database' : 'starts the new data folder\'s server'}, checks, loads, verifies), peak memory ${mb(restore.peakMb)}`);
    console.log(`          ${/^Restored.*$/m.exec(restore.output)?.[0]}`);
    console.log(`compare:  ${identical ? 'identical' : 'DIFFERENT'}: every table's rows and every file's bytes (${elapsed(started).toFixed(1)} s)${differing.length ? `; tables differing: ${differing.join(', ')}` : ''}${differingFiles ? `; files differing: ${differingFiles}` : ''}`);
    process.exitCode = identical ? 0 : 1;
  } finally {
    await target?.close();
    await source.close();
    await targetLocation.drop();
    await sourceLocation.drop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
