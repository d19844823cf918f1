import { mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createGzip, gunzipSync } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import * as tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, CATEGORY_LIST, type CategoryDef } from '@app/shared';
import { eq } from 'drizzle-orm';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import type { Database } from '../src/db';
import { linkCaptures } from '../src/db/schema';
import { ArchiveError, MANIFEST, MANIFEST_HASH, sha256, type Manifest } from '../src/modules/backup/archive';
import { writeBackup } from '../src/modules/backup/backup';
import { listTables, readSequences } from '../src/modules/backup/catalog';
import { runBackup, runRestore } from '../src/modules/backup/cli';
import { checkArchive, restoreBackup } from '../src/modules/backup/restore';
import { LocalStorage, S3Storage, type Storage } from '../src/modules/media/storage';
import { AuditService } from '../src/services/audit';
import { startS3Server } from './s3-server';
import { call, createTestApp, createUser, freshDatabase, type TestApp } from './helpers';
import { imageField, multipart, sampleFields, testImage } from './records-helpers';

/**
 * Backup and restore: a backup of a site with records, images, trash, a purge and an audit trail restores
 * into an empty database and file store as an identical copy; damaged, cut-short or forged archives and non-empty
 * targets are refused with nothing changed.
 */

type User = Awaited<ReturnType<typeof createUser>>;

let source: TestApp;
let work: string;
let archive: string;
let seed = 1;
const url = (p: string) => `${API_BASE}${p}`;

interface Target {
  database: Database;
  storage: Storage;
  close: () => Promise<void>;
}

/** A migrated database with nothing in it (no app: the app loads the representatives' directory at start). */
async function emptyTarget(): Promise<Target> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'restore-target-'));
  const { database, drop } = await freshDatabase(2);
  const close = async () => {
    await database.close();
    await drop();
    rmSync(dir, { recursive: true, force: true });
  };
  return { database, storage: new LocalStorage(path.join(dir, 'media')), close };
}

/** Every row of every table as PostgreSQL's own text of the row (not the archive's JSON), sorted. */
async function tableContents(database: Database): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of await listTables(database.db)) {
    const rows = await database.query<{ r: string }>(`select x::text as r from public."${table.name}" x order by 1`);
    out[table.name] = rows.map((row) => row.r);
  }
  return out;
}

async function storedFiles(storage: Storage): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for await (const { key } of storage.list()) out.set(key, Buffer.concat(await (await storage.get(key)).toArray()));
  return out;
}

async function isEmpty(target: Target) {
  const contents = await tableContents(target.database);
  return Object.values(contents).every((rows) => rows.length === 0) && (await storedFiles(target.storage)).size === 0;
}

/** Rewrites an archive entry by entry (valid gzip and tar), then lets `fixManifest` make the manifest agree. */
async function rewriteArchive(from: string, to: string, edit: (name: string, bytes: Buffer) => Buffer, fixManifest?: (m: Manifest, parts: Map<string, Buffer>) => void) {
  const entries: { name: string; bytes: Buffer }[] = [];
  const extract = tar.extract();
  const done = (async () => {
    for await (const entry of extract) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry as unknown as AsyncIterable<Buffer>) chunks.push(chunk);
      entries.push({ name: entry.header.name, bytes: edit(entry.header.name, Buffer.concat(chunks)) });
    }
  })();
  extract.end(gunzipSync(readFileSync(from)));
  await done;
  if (fixManifest) {
    const parts = new Map(entries.map((e) => [e.name, e.bytes]));
    const manifest = JSON.parse(parts.get(MANIFEST)!.toString()) as Manifest;
    fixManifest(manifest, parts);
    const bytes = Buffer.from(JSON.stringify(manifest));
    entries.find((e) => e.name === MANIFEST)!.bytes = bytes;
    entries.find((e) => e.name === MANIFEST_HASH)!.bytes = Buffer.from(sha256().update(bytes).digest('hex'));
  }
  const pack = tar.pack();
  const written = pipeline(pack as unknown as NodeJS.ReadableStream, createGzip(), createWriteStream(to));
  for (const e of entries) pack.entry({ name: e.name }, e.bytes);
  pack.finalize();
  await written;
}

/** Makes every hash in the manifest describe the (edited) parts, as a forger would. */
function rehash(manifest: Manifest, parts: Map<string, Buffer>) {
  for (const table of manifest.tables) {
    const whole = sha256();
    for (const part of table.parts) {
      const bytes = parts.get(part.name)!;
      part.sha256 = sha256().update(bytes).digest('hex');
      part.bytes = bytes.length;
      whole.update(bytes);
    }
    table.sha256 = whole.digest('hex');
  }
}

async function createRecord(category: CategoryDef, user: User, images: number) {
  const field = imageField(category);
  const files = field
    ? await Promise.all(Array.from({ length: field === 'image' ? Math.min(images, 1) : images }, async () => ({ field, filename: 'sample.png', type: 'image/png', data: await testImage(seed++) })))
    : [];
  const body = multipart(sampleFields(category, `Backup ${seed++}`), files);
  const res = await call(source.app, { method: 'POST', url: url(`/${category.slug}`), headers: { ...user.auth, ...body.headers }, payload: body.payload });
  expect(res.status).toBe(201);
  return res.body as { _id: string };
}

/**
 * A finished capture of a cited link, its files stored as the capture job stores them (no browser needed here):
 * the link record created above queued it.
 */
async function storeFinishedCapture() {
  const [queued] = await source.app.db.select().from(linkCaptures).limit(1);
  expect(queued).toBeDefined();
  const files: Record<string, string | number> = {};
  for (const [name, text] of [['snapshot', 'MIME-Version: 1.0\r\n\r\nTest capture snapshot'], ['screenshot', 'test screenshot bytes'], ['headers', '{"test":true}\n']]) {
    const bytes = Buffer.from(text!);
    const key = `originals/captures/${queued!.id.slice(0, 2)}/${queued!.id}/${name}`;
    await source.app.media.storage.put(key, bytes, 'application/octet-stream', bytes.length);
    Object.assign(files, { [`${name}Key`]: key, [`${name}Sha256`]: sha256().update(bytes).digest('hex'), [`${name}Size`]: bytes.length });
  }
  await source.app.db.update(linkCaptures).set({ status: 'done', capturedAt: new Date(), ...files }).where(eq(linkCaptures.id, queued!.id));
}

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'backup-test-'));
  archive = path.join(work, 'site.tar.gz');
  source = await createTestApp();
  const contributor = await createUser(source.app, 'contributor');
  const admin = await createUser(source.app, 'admin');
  const superUser = await createUser(source.app, 'super');
  // Every category, with images where it takes them; some approved, one trashed, one purged (its files stay).
  for (const category of CATEGORY_LIST) {
    const first = await createRecord(category, contributor, 2);
    await createRecord(category, admin, 1);
    if (category.approvable) {
      expect((await call(source.app, { method: 'PUT', url: url(`/${category.slug}/approve/${first._id}`), headers: admin.auth })).status).toBe(200);
    }
  }
  const [victims] = CATEGORY_LIST.filter((c) => imageField(c));
  const trashed = await createRecord(victims!, admin, 1);
  expect((await call(source.app, { method: 'DELETE', url: url(`/${victims!.slug}/${trashed._id}/delete`), headers: admin.auth })).status).toBe(200);
  const purged = await createRecord(victims!, admin, 1);
  await call(source.app, { method: 'DELETE', url: url(`/${victims!.slug}/${purged._id}/delete`), headers: admin.auth });
  expect((await call(source.app, { method: 'DELETE', url: url(`/trash/${purged._id}`), headers: superUser.auth })).status).toBe(200);
  await storeFinishedCapture();
  await writeBackup(source.database, source.app.media.storage, archive);
});

afterAll(async () => {
  await source?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('round-trips every table row, sequence and stored file byte for byte', async () => {
    const sourceTables = await tableContents(source.database);
    const sourceFiles = await storedFiles(source.app.media.storage);
    // The source is worth the test: records, originals and public copies, counters, the audit trail.
    expect(sourceTables.records!.length).toBeGreaterThan(CATEGORY_LIST.length);
    expect(sourceTables.media!.length).toBeGreaterThan(5);
    expect(sourceTables.audit_log!.length).toBeGreaterThan(CATEGORY_LIST.length * 3);
    expect(sourceTables.record_counts!.length).toBeGreaterThan(0);
    expect(sourceTables.gallery_counts!.length).toBeGreaterThan(0);
    expect([...sourceFiles.keys()].some((k) => k.startsWith('originals/'))).toBe(true);
    expect([...sourceFiles.keys()].some((k) => k.startsWith('public/'))).toBe(true);
    expect([...sourceFiles.keys()].filter((k) => k.startsWith('originals/captures/'))).toHaveLength(3);
    expect(sourceTables.link_captures!.length).toBeGreaterThan(0);

    const { manifest } = await checkArchive(archive);
    for (const [name, rows] of Object.entries(sourceTables)) expect(manifest.tables.find((t) => t.name === name)?.rows, name).toBe(rows.length);
    expect(manifest.files.map((f) => f.key).sort()).toEqual([...sourceFiles.keys()].sort());
    expect(manifest.problems).toEqual([]);

    const target = await emptyTarget();
    try {
      const result = await restoreBackup(target.database, target.storage, archive);
      expect(result.auditEntries).toBe(sourceTables.audit_log!.length);
      expect(await tableContents(target.database)).toEqual(sourceTables);
      expect(await readSequences(target.database.db)).toEqual(await readSequences(source.database.db));
      const targetFiles = await storedFiles(target.storage);
      expect([...targetFiles.keys()].sort()).toEqual([...sourceFiles.keys()].sort());
      for (const [key, bytes] of sourceFiles) expect(targetFiles.get(key)!.equals(bytes), key).toBe(true);

      // The restored copy keeps working: triggers are back on, the next audit entry continues the chain.
      const audit = new AuditService(target.database.db);
      const next = await audit.append({ actor: null, action: 'test-after-restore' });
      expect(next.seq).toBe(sourceTables.audit_log!.length + 1);
      expect((await audit.verify()).ok).toBe(true);
      await target.database.query(`insert into records (category, title) values ('victims', 'After restore (test)')`);
      const [count] = await target.database.query<{ n: string }>(`select n::text from record_counts where category = 'victims' and visibility = 'all'`);
      const [actual] = await target.database.query<{ n: string }>(`select count(*)::text as n from records where category = 'victims' and deleted_at is null`);
      expect(count!.n).toBe(actual!.n);
    } finally {
      await target.close();
    }
  });

  it('the commands print what they did, refuse to overwrite an archive, and check an archive on its own', async () => {
    const lines: string[] = [];
    const again = path.join(work, 'again.tar.gz');
    process.env.DATA_DIR = source.dataDir;
    try {
      expect(await runBackup([archive], source.database, (l) => lines.push(l))).toBe(1);
      expect(await runBackup([again], source.database, (l) => lines.push(l))).toBe(0);
      expect(lines.at(-1)).toMatch(/^Backup written to .*again\.tar\.gz: \d+ rows in \d+ tables and \d+ files .* in \d+\.\d s\.$/);
      // E-mail addresses, password hashes, originals with their GPS data: for the owner's eyes only, whatever the umask.
      expect((statSync(again).mode & 0o777).toString(8)).toBe('600');
      expect(await runRestore([again, '--check'], source.database, (l) => lines.push(l))).toBe(0);
      expect(lines.at(-1)).toMatch(/is intact/);
      // A backup to a name another backup is writing stops and leaves that one's file alone.
      const busy = path.join(work, 'busy.tar.gz');
      writeFileSync(`${busy}.part`, 'being written');
      await expect(writeBackup(source.database, source.app.media.storage, busy)).rejects.toThrow(/busy\.tar\.gz\.part exists: another backup/);
      expect(readFileSync(`${busy}.part`, 'utf8')).toBe('being written');
    } finally {
      delete process.env.DATA_DIR;
    }
  });

  describe('refusals leave the target as it was', () => {
    let target: Target;
    beforeAll(async () => {
      target = await emptyTarget();
    });
    afterAll(async () => target?.close());

    const refused = async (file: string, message: RegExp) => {
      await expect(checkArchive(file)).rejects.toThrow(message);
      const err = await restoreBackup(target.database, target.storage, file).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ArchiveError);
      expect((err as Error).message).toMatch(message);
      expect(await isEmpty(target)).toBe(true);
    };

    it('a flipped byte anywhere in the compressed stream', async () => {
      const bytes = readFileSync(archive);
      // Past the gzip header (whose time stamp no check covers, and which holds no content).
      for (const at of [20, Math.floor(bytes.length / 3), Math.floor(bytes.length / 2), bytes.length - 30, bytes.length - 3]) {
        const copy = Buffer.from(bytes);
        copy[at] = copy[at]! ^ 0x10;
        const file = path.join(work, `flipped-${at}.tar.gz`);
        writeFileSync(file, copy);
        await refused(file, /damaged|cut short|does not match/);
      }
    });

    it('an archive cut short', async () => {
      for (const fraction of [0.2, 0.7, 0.999]) {
        const file = path.join(work, `cut-${fraction}.tar.gz`);
        writeFileSync(file, readFileSync(archive));
        truncateSync(file, Math.floor(statSync(file).size * fraction));
        await refused(file, /cut short/);
      }
    });

    it('a changed row or file behind intact compression', async () => {
      const changedRow = path.join(work, 'changed-row.tar.gz');
      await rewriteArchive(archive, changedRow, (name, bytes) => (name.startsWith('tables/records.') ? Buffer.from(bytes.toString().replace('Backup', 'Forged')) : bytes));
      await refused(changedRow, /tables\/records\.00001\.ndjson does not match its SHA-256/);

      const changedFile = path.join(work, 'changed-file.tar.gz');
      let done = false;
      await rewriteArchive(archive, changedFile, (name, bytes) => {
        if (done || !name.startsWith('files/originals/')) return bytes;
        done = true;
        const copy = Buffer.from(bytes);
        copy[copy.length - 1] = copy[copy.length - 1]! ^ 1;
        return copy;
      });
      await refused(changedFile, /files\/originals\/.* does not match its SHA-256/);

      const lostFile = path.join(work, 'lost-file.tar.gz');
      await rewriteArchive(archive, lostFile, (name, bytes) => bytes, (manifest) => manifest.files.push({ key: 'public/never-stored.webp', size: 1, sha256: '0'.repeat(64) }));
      await refused(lostFile, /files\/public\/never-stored\.webp is missing/);
    });

    it('a forged audit entry whose hashes were all recomputed: the audit chain does not verify', async () => {
      const forged = path.join(work, 'forged-audit.tar.gz');
      await rewriteArchive(
        archive,
        forged,
        (name, bytes) => (name.startsWith('tables/audit_log.') ? Buffer.from(bytes.toString().replace('"action":"create"', '"action":"edit"')) : bytes),
        rehash,
      );
      await checkArchive(forged);
      const err = await restoreBackup(target.database, target.storage, forged).catch((e: unknown) => e);
      expect((err as Error).message).toMatch(/audit chain does not verify after loading .*nothing was restored/);
      expect(await isEmpty(target)).toBe(true);
    });

    it('a forged original whose archive hashes were recomputed: it no longer matches its media row', async () => {
      const forged = path.join(work, 'forged-original.tar.gz');
      let key = '';
      await rewriteArchive(
        archive,
        forged,
        (name, bytes) => {
          if (key || !name.startsWith('files/originals/')) return bytes;
          key = name.slice('files/'.length);
          return Buffer.concat([bytes, Buffer.from('x')]);
        },
        (manifest, parts) => {
          const file = manifest.files.find((f) => f.key === key)!;
          file.size += 1;
          file.sha256 = sha256().update(parts.get(`files/${key}`)!).digest('hex');
        },
      );
      await checkArchive(forged);
      const err = await restoreBackup(target.database, target.storage, forged).catch((e: unknown) => e);
      expect((err as Error).message).toMatch(/does not match the SHA-256 its media row recorded; nothing was restored/);
      expect(await isEmpty(target)).toBe(true);
    });

    it('a forged capture file whose archive hashes were recomputed: it no longer matches its link capture', async () => {
      const forged = path.join(work, 'forged-capture.tar.gz');
      await rewriteArchive(
        archive,
        forged,
        (name, bytes) => (name.endsWith('/snapshot') && name.startsWith('files/originals/captures/') ? Buffer.from(bytes.toString().replace('Test', 'Fake')) : bytes),
        (manifest, parts) => {
          const file = manifest.files.find((f) => f.key.startsWith('originals/captures/') && f.key.endsWith('/snapshot'))!;
          file.sha256 = sha256().update(parts.get(`files/${file.key}`)!).digest('hex');
        },
      );
      await checkArchive(forged);
      const err = await restoreBackup(target.database, target.storage, forged).catch((e: unknown) => e);
      expect((err as Error).message).toMatch(/original originals\/captures\/.* does not match the SHA-256 its link capture recorded; nothing was restored/);
      expect(await isEmpty(target)).toBe(true);
    });

    it('a target database that holds rows, or a file store that holds files', async () => {
      await target.database.query(`insert into campaign_defaults (country, message) values ('ca', 'Existing (test)')`);
      const err = await restoreBackup(target.database, target.storage, archive).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ArchiveError);
      expect((err as Error).message).toMatch(/refusing to restore into a target that is not empty: the database holds campaign_defaults \(1 row\)/);
      const contents = await tableContents(target.database);
      expect(Object.entries(contents).filter(([, rows]) => rows.length)).toEqual([['campaign_defaults', [expect.stringContaining('Existing (test)')]]]);
      expect((await storedFiles(target.storage)).size).toBe(0);
      await target.database.query('delete from campaign_defaults');

      await target.storage.put('public/already-here.txt', Buffer.from('x'), 'text/plain');
      await expect(restoreBackup(target.database, target.storage, archive)).rejects.toThrow(/the file store holds public\/already-here\.txt/);
      expect(Object.values(await tableContents(target.database)).every((rows) => rows.length === 0)).toBe(true);
      await target.storage.delete('public/already-here.txt');
    });
  });
});

describe('a backup taken while editors write', () => {
  it('is the database at one moment: counters, gallery columns and the audit trail agree with the records', async () => {
    const admin = await createUser(source.app, 'admin');
    const file = path.join(work, 'during-writes.tar.gz');
    const category = CATEGORY_LIST.find((c) => imageField(c) === 'image')!;
    const writes = Promise.all(Array.from({ length: 8 }, () => createRecord(category, admin, 1)));
    await writeBackup(source.database, source.app.media.storage, file);
    await writes;
    const target = await emptyTarget();
    try {
      await restoreBackup(target.database, target.storage, file);
      const q = (text: string) => target.database.query<{ n: string }>(text).then((rows) => rows.map((r) => Object.values(r).join(' ')));
      // What the triggers keep must match what they were computed from, as in one snapshot of the source.
      expect(await q(`select category || ' ' || visibility || ' ' || n from record_counts where n <> 0 order by 1`)).toEqual(
        await q(`select category || ' ' || v || ' ' || count(*) from records, (values ('all'), ('public')) as vs(v)
                 where deleted_at is null and (v = 'all' or public) group by category, v order by 1`),
      );
      // The statistics' counts (record_stats), restored as rows with the triggers off, count the restored records.
      expect(
        await q(`select category || ' ' || visibility || ' ' || region || ' ' || month || ' ' || n || ' ' || quantity from record_stats where n <> 0 order by 1`),
      ).toEqual(
        await q(`select category || ' ' || v || ' ' || region || ' ' || month || ' ' || count(*) || ' ' || coalesce(sum(quantity), 0)
                 from (select category, v, coalesce(region, '') as region, victimizer, killing_type, approved, quantity,
                         coalesce(to_char(coalesce(happened_on, start_at) at time zone 'UTC', 'YYYY-MM'), '') as month
                       from records, (values ('all'), ('public')) as vs(v) where deleted_at is null and (v = 'all' or public)) as counted
                 group by category, v, region, month, victimizer, killing_type, approved order by 1`),
      );
      expect(await q(`select count(*) from records r where not exists (select 1 from audit_log a where a.record_id = r.id and a.action = 'create')`)).toEqual(['0']);
      expect(await q(`select count(*) from audit_log a where a.action = 'create' and a.category is not null and a.record_id is not null
                        and not exists (select 1 from records r where r.id = a.record_id) and not exists (select 1 from audit_log p where p.record_id = a.record_id and p.action = 'purge')`)).toEqual(['0']);
      expect(await q(`select count(*) from media m join records r on r.id = m.record_id where m.record_live <> (r.deleted_at is null)`)).toEqual(['0']);
      const keys = new Set((await storedFiles(target.storage)).keys());
      expect((await target.database.query<{ k: string }>('select storage_key as k from media')).every(({ k }) => keys.has(k))).toBe(true);
    } finally {
      await target.close();
    }
  });
});

describe('files in S3', () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let s3Source: TestApp;
  let port: number;

  beforeAll(async () => {
    s3 = await startS3Server(['backup-source', 'restore-target']);
    port = s3.port;
    s3Source = await createTestApp(s3.env('backup-source'));
  });
  afterAll(async () => {
    await s3Source?.close();
    await s3?.close();
  });

  it('backs up a bucket and restores it into an empty one, byte for byte', async () => {
    const admin = await createUser(s3Source.app, 'admin');
    const category = CATEGORY_LIST.find((c) => imageField(c) === 'files[]')!;
    const field = imageField(category)!;
    const files = await Promise.all([1, 2, 3].map(async () => ({ field, filename: 's.png', type: 'image/png', data: await testImage(seed++) })));
    const body = multipart(sampleFields(category, 'Backup S3'), files);
    expect((await call(s3Source.app, { method: 'POST', url: url(`/${category.slug}`), headers: { ...admin.auth, ...body.headers }, payload: body.payload })).status).toBe(201);
    const sourceStorage = s3Source.app.media.storage as S3Storage;
    const sourceFiles = await storedFiles(sourceStorage);
    expect(sourceFiles.size).toBeGreaterThanOrEqual(6);

    const file = path.join(work, 's3.tar.gz');
    await writeBackup(s3Source.database, sourceStorage, file);
    const target = await emptyTarget();
    const bucket = new S3Storage({ bucket: 'restore-target', region: 'us-east-1', endpoint: `http://127.0.0.1:${port}`, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
    try {
      await restoreBackup(target.database, bucket, file);
      expect(await tableContents(target.database)).toEqual(await tableContents(s3Source.database));
      const restored = await storedFiles(bucket);
      expect([...restored.keys()].sort()).toEqual([...sourceFiles.keys()].sort());
      for (const [key, bytes] of sourceFiles) expect(restored.get(key)!.equals(bytes), key).toBe(true);

      // Into a new, empty database but the same (now filled) bucket: refused for the bucket alone.
      const second = await emptyTarget();
      try {
        await expect(restoreBackup(second.database, bucket, file)).rejects.toThrow(/the file store holds (originals|public)\//);
      } finally {
        await second.close();
      }
    } finally {
      bucket.destroy();
      await target.close();
    }
  });
});

describe('a restored site trusts its own audit log (issue 37 item 3)', () => {
  let file: string;
  let sourceKey: { keyId: string; pem: string };

  beforeAll(async () => {
    const superUser = await createUser(source.app, 'super');
    // A checkpoint of the source's chain, signed by the source's key, is what the restored site must still trust.
    const made = await call(source.app, { method: 'POST', url: url('/audit/checkpoints'), headers: superUser.auth });
    expect([200, 201]).toContain(made.status);
    expect((await source.app.audit.listCheckpoints()).length).toBeGreaterThan(0);
    sourceKey = { keyId: source.app.auditSigner.keyId, pem: readFileSync(path.join(source.dataDir, 'audit-signing-key.pem'), 'utf8') };
    file = path.join(work, 'signed.tar.gz');
    await writeBackup(source.database, source.app.media.storage, file);
  });

  /** Restores `file` with the admin command into an empty database and data folder, then starts a site on them. */
  async function restoreAndStart(env: Record<string, string>) {
    const target = await emptyTarget();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'restored-site-'));
    const lines: string[] = [];
    const saved = { ...process.env };
    Object.assign(process.env, { DATA_DIR: dataDir, ...env });
    try {
      expect(await runRestore([file], target.database, (l) => lines.push(l))).toBe(0);
    } finally {
      for (const name of ['DATA_DIR', ...Object.keys(env)]) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', JWT_SECRET: 'x'.repeat(40), ...env });
    const app = await buildApp({ config, database: target.database, runJobs: false, logger: false });
    await app.ready();
    const superUser = await createUser(app, 'super');
    return {
      app,
      lines,
      verify: async () => (await call(app, { method: 'GET', url: url('/audit/verify'), headers: superUser.auth })).body as { ok: boolean; reason: string | null },
      checkpoint: async () => (await call(app, { method: 'POST', url: url('/audit/checkpoints'), headers: superUser.auth })).body as { keyId: string },
      close: async () => {
        await app.close();
        await target.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }

  it('restored into an empty data folder, it verifies its chain and says it signs with a new key from now on', async () => {
    const site = await restoreAndStart({});
    try {
      expect(await site.verify()).toMatchObject({ ok: true, reason: null });
      expect(site.app.auditSigner.keyId).not.toBe(sourceKey.keyId);
      expect(site.lines.join('\n')).toContain(`signed by a NEW key ${site.app.auditSigner.keyId.slice(0, 16)}`);
      expect(site.lines.join('\n')).toMatch(/Keep .*audit-signing-key\.pem with your backups, stored separately/);
      // New checkpoints are signed by the new key, and the old ones stay trusted beside them.
      const audit = site.app.audit;
      await audit.append({ actor: null, action: 'test-after-restore' });
      expect((await site.checkpoint()).keyId).toBe(site.app.auditSigner.keyId);
      expect(await site.verify()).toMatchObject({ ok: true });
      expect((await audit.signingKeys()).map((k) => k.keyId)).toEqual([sourceKey.keyId, site.app.auditSigner.keyId]);
    } finally {
      await site.close();
    }
  });

  it('restored with the old key supplied, it keeps signing with that key', async () => {
    const site = await restoreAndStart({ AUDIT_SIGNING_KEY: sourceKey.pem });
    try {
      expect(site.app.auditSigner.keyId).toBe(sourceKey.keyId);
      expect(await site.verify()).toMatchObject({ ok: true, reason: null });
      expect(site.lines.join('\n')).toContain(`signed by key ${sourceKey.keyId.slice(0, 16)}... (AUDIT_SIGNING_KEY), the key that signed before the backup`);
      await site.app.audit.append({ actor: null, action: 'test-after-restore' });
      expect((await site.checkpoint()).keyId).toBe(sourceKey.keyId);
      expect((await site.app.audit.signingKeys()).map((k) => k.keyId)).toEqual([sourceKey.keyId]);
      expect(await site.verify()).toMatchObject({ ok: true });
    } finally {
      await site.close();
    }
  });

  it('a key history whose new key claims a voucher the old key never gave does not verify', async () => {
    const site = await restoreAndStart({});
    try {
      const newest = (await site.app.audit.signingKeys()).at(-1)!;
      // A voucher the old key never signed, written straight into the database: named as such, before the chain.
      await site.app.database.query(`update audit_log set changes = jsonb_set(changes, '{vouch,after}', '"AAAA"') where seq = $1`, [newest.seq]);
      const report = await site.verify();
      expect(report.ok).toBe(false);
      expect(report.reason).toMatch(new RegExp(`key introduced at entry ${newest.seq} carries a signature of the previous key that does not verify`));
    } finally {
      await site.close();
    }
  });
});
