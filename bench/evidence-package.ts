/**
 * Evidence package at size (issue 59 item 4): an incident with --people linked people, --originals original files of
 * --mb megabytes in all, their public copies and --captures captures, packaged as a stream to a file in this process
 * (startPackage, as the route and the `package` command do), then checked with verify-package. Prints the package's
 * time, MB/s, the peak memory above the process's own before it started, and for comparison the rate at which the
 * same originals are read from disk alone.
 *
 *   node --import tsx bench/evidence-package.ts                       # quick: 200 people, 500 originals, 200 MB, 50 captures
 *   node --import tsx bench/evidence-package.ts --mb=2000             # the issue's 2 GB
 *   npm run bench -- --only=evidence [--evidence-mb=2000]
 *
 * The database is in-memory PGlite (the test database) and the files are in a temporary folder. Every generated
 * record is titled "Package bench ..." and marked as sample data: not real. The captures are files of random bytes
 * named as captures' files (no WACZ: making fifty takes longer than the package), so their WACZ check is not timed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { openDatabase } from '../apps/server/src/db/index';
import { linkCaptures, media, records } from '../apps/server/src/db/schema';
import { AuditService } from '../apps/server/src/services/audit';
import { AuditSigner } from '../apps/server/src/services/audit-checkpoints';
import { CaptureSigner } from '../apps/server/src/modules/captures/signing';
import { MediaService } from '../apps/server/src/modules/media/service';
import { LocalStorage } from '../apps/server/src/modules/media/storage';
import { startPackage } from '../apps/server/src/modules/evidence-package/package';
import { verifyPackage } from '../apps/server/src/modules/evidence-package/verify';

const option = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=').slice(1).join('=') ?? fallback;
const PEOPLE = Number(option('people', '200'));
const ORIGINALS = Number(option('originals', '500'));
const MB = Number(option('mb', '200'));
const CAPTURES = Number(option('captures', '50'));
const LABEL = 'Package bench data - not real';
const mb = (bytes: number) => bytes / 1024 / 1024;

async function seed(work: string) {
  const database = await openDatabase({});
  const storage = new LocalStorage(path.join(work, 'media'));
  const audit = new AuditService(database.db, { signer: AuditSigner.forDataDir(work), every: 1000 });
  const superId = '00000000-0000-4000-8000-000000000001';
  const actor = { id: superId, role: 'super' as const };
  const [incident] = await database.db.insert(records).values({ category: 'massacres', title: 'Package bench massacre', description: LABEL, public: true, userId: superId }).returning();
  await audit.append({ actor, action: 'create', category: 'massacres', recordId: incident!.id, changes: { title: { before: null, after: incident!.title } } });
  const people: string[] = [];
  for (let n = 0; n < PEOPLE; n++) {
    const [person] = await database.db.insert(records).values({ category: 'victims', title: `Package bench victim ${n}`, description: LABEL, public: true, userId: superId, incidentId: incident!.id }).returning();
    people.push(person!.id);
    await audit.append({ actor, action: 'create', category: 'victims', recordId: person!.id, changes: { title: { before: null, after: person!.title } } });
  }
  const size = Math.floor((MB * 1024 * 1024) / ORIGINALS);
  const chunk = randomBytes(1024 * 1024);
  for (let n = 0; n < ORIGINALS; n++) {
    // Random-looking bytes that differ per file: a 1 MB random block rotated, so writing 2 GB costs no RNG time.
    const bytes = Buffer.alloc(size);
    for (let at = 0; at < size; at += chunk.length) chunk.copy(bytes, at, 0, Math.min(chunk.length, size - at));
    bytes.writeUInt32BE(n, 0);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const key = `originals/${sha256}.jpg`;
    await storage.put(key, bytes, 'image/jpeg');
    const copy = `public/bench-${n}.webp`;
    await storage.put(copy, bytes.subarray(0, Math.min(size, 20_000)), 'image/webp');
    const recordId = n % 2 ? incident!.id : people[n % people.length]!;
    const [row] = await database.db.insert(media).values({ recordId, kind: 'image', role: 'gallery', storageKey: key, sha256, size, mime: 'image/jpeg', originalName: `bench-${n}.jpg`, publicKey: copy, variants: [{ width: 800, format: 'webp', key: copy }], uploadedBy: superId }).returning();
    await audit.append({ actor, action: 'edit', category: 'massacres', recordId, changes: { images: { before: null, after: [row!.id] } } });
  }
  for (let n = 0; n < CAPTURES; n++) {
    const [row] = await database.db.insert(linkCaptures).values({ recordId: incident!.id, field: 'evidence', url: `https://example.org/bench-${n}`, status: 'done', capturedAt: new Date() }).returning();
    const shot = randomBytes(200_000);
    const key = `originals/captures/${row!.id}/screenshot.png`;
    await storage.put(key, shot, 'image/png');
    const { eq } = await import('drizzle-orm');
    await database.db.update(linkCaptures).set({ screenshotKey: key, screenshotSha256: createHash('sha256').update(shot).digest('hex'), screenshotSize: shot.length }).where(eq(linkCaptures.id, row!.id));
  }
  await audit.checkpoint();
  return { database, storage, audit, incident: incident!.id, actor };
}

/** Streams every original to nowhere: how fast this disk reads them, the package's floor. */
async function readRate(storage: LocalStorage, root: string, keys: string[]): Promise<number> {
  const start = performance.now();
  let bytes = 0;
  for (const key of keys) {
    bytes += statSync(path.join(root, key)).size;
    await pipeline(createReadStream(path.join(root, key)), new Writable({ write: (_c, _e, done) => done() }));
  }
  void storage;
  return mb(bytes) / ((performance.now() - start) / 1000);
}

async function main() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'package-bench-'));
  try {
    console.error(`seeding: ${PEOPLE} people, ${ORIGINALS} originals (${MB} MB), ${CAPTURES} captures`);
    const site = await seed(work);
    const mediaService = new MediaService(site.database.db, site.storage);
    const keys = (await site.database.db.select({ key: media.storageKey }).from(media)).map((r) => r.key);
    const diskMBs = await readRate(site.storage, path.join(work, 'media'), keys);
    const services = { db: site.database.db, storage: site.storage, media: mediaService, audit: site.audit, config: { SITE_NAME: 'Bench site', CONTACT_EMAIL: 'bench@example.org', publicUrl: 'http://localhost' }, capturePublicKeyPem: CaptureSigner.forDataDir(work).publicKeyPem };
    const out = path.join(work, 'package.zip');
    global.gc?.();
    const baseRss = process.memoryUsage().rss;
    let peakRss = baseRss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
    const start = performance.now();
    const started = await startPackage(services, { category: 'massacres', id: site.incident, actor: site.actor, includeWithheld: false, via: 'command line' });
    await pipeline(started!.stream, createWriteStream(out));
    const result = await started!.finished;
    const seconds = (performance.now() - start) / 1000;
    clearInterval(sampler);
    const verifyStart = performance.now();
    const report = await verifyPackage(out, { publicKeyPem: null, capturePublicKeyPem: null });
    const verifySeconds = (performance.now() - verifyStart) / 1000;
    const figures = {
      people: PEOPLE,
      originals: ORIGINALS,
      captures: CAPTURES,
      packageMB: Number(mb(result.bytes).toFixed(1)),
      packageSeconds: Number(seconds.toFixed(2)),
      packageMBs: Number((mb(result.bytes) / seconds).toFixed(1)),
      diskReadMBs: Number(diskMBs.toFixed(1)),
      peakRssAboveStartMB: Number(mb(peakRss - baseRss).toFixed(1)),
      peakRssMB: Number(mb(peakRss).toFixed(1)),
      verifySeconds: Number(verifySeconds.toFixed(2)),
      verified: report.ok,
      loadAverage: os.loadavg()[0],
    };
    console.log(JSON.stringify(figures));
    if (!report.ok) console.error(report.checks.filter((c) => !c.ok).map((c) => c.what).join('\n'));
    await site.database.close();
    process.exitCode = report.ok ? 0 : 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
