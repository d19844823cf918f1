import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, type Role } from '@app/shared';
import { auditLog, jobs, media, records } from '../src/db/schema';
import type { IncomingFile } from '../src/modules/media/service';
import { MediaService } from '../src/modules/media/service';
import { findFfmpeg } from '../src/modules/media/video';
import { runMediaVerify } from '../src/modules/media/verify-command';
import { attachSampleImages } from '../src/modules/media/sample-images';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { bigTestImage } from './records-helpers';

const actorOf = (u: { id: string; role: string }) => ({ id: u.id, role: u.role as Role });
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const upload = (bytes: Buffer, filename: string, mimetype: string, field = 'image'): IncomingFile => ({
  field,
  filename,
  mimetype,
  stream: Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)].filter((b) => b.length)),
});

/** A JPEG as a phone writes it: capture time, device and GPS position in its EXIF. */
async function photoWithGps(width = 1600, height = 900) {
  return sharp({ create: { width, height, channels: 3, background: '#7a4b2a' } })
    .composite([{ input: Buffer.from(`<svg width="${width}" height="${height}"><circle cx="300" cy="300" r="200" fill="#fff"/></svg>`) }])
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: 'SampleCam', Model: 'Test Phone 7', DateTime: '2021:01:05 12:30:00' },
      IFD2: { DateTimeOriginal: '2021:01:05 12:30:00' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '11/1 35/1 24/1', GPSLongitudeRef: 'E', GPSLongitude: '37/1 23/1 24/1' },
    })
    .toBuffer();
}

let t: TestApp;
let owner: Awaited<ReturnType<typeof createUser>>;
let other: Awaited<ReturnType<typeof createUser>>;
let admin: Awaited<ReturnType<typeof createUser>>;
let recordId: string;
const mediaRows = async () => Number((await t.app.db.select({ n: count() }).from(media))[0]!.n);
const uploadsLeft = () => {
  try {
    return readdirSync(path.join(t.dataDir, 'tmp', 'uploads')).filter((f) => f.endsWith('.upload'));
  } catch {
    return [];
  }
};
const originalsStored = () => {
  try {
    return readdirSync(path.join(t.dataDir, 'media', 'originals'), { recursive: true }).filter((f) => /[a-f0-9]{64}$/.test(String(f)));
  } catch {
    return [];
  }
};

beforeAll(async () => {
  t = await createTestApp({ MAX_IMAGE_MB: '1', MAX_VIDEO_MB: '3' });
  owner = await createUser(t.app, 'contributor');
  other = await createUser(t.app, 'contributor');
  admin = await createUser(t.app, 'admin');
  const [row] = await t.app.db
    .insert(records)
    .values({ category: 'victims', title: 'Sample test record', description: 'Sample (test)', userId: owner.id })
    .returning();
  recordId = row!.id;
});
afterAll(async () => t?.close());

describe('image ingest', () => {
  let bytes: Buffer;
  let row: Awaited<ReturnType<MediaService['ingest']>>;

  beforeAll(async () => {
    bytes = await photoWithGps();
    row = await t.app.media.ingest(upload(bytes, 'IMG_0001.jpg', 'image/jpeg'), {
      recordId,
      role: 'cover',
      position: 0,
      uploadedBy: owner.id,
      accept: 'image',
    });
  });

  it('keeps the original unchanged with the SHA-256 of the uploaded bytes', async () => {
    expect(row.sha256).toBe(sha256(bytes));
    expect(row.size).toBe(bytes.length);
    expect(row.mime).toBe('image/jpeg');
    const stored = Buffer.concat(await (await t.app.media.storage.get(row.storageKey)).toArray());
    expect(sha256(stored)).toBe(sha256(bytes));
    expect(row.storageKey.startsWith('originals/')).toBe(true);
  });

  it('makes WebP, AVIF and JPEG copies at 320, 640 and 1280 wide, with no metadata in the served bytes', async () => {
    expect(row.width).toBe(1600);
    expect(row.height).toBe(900);
    expect(row.variants.map((v) => `${v.width}.${v.format}`).sort()).toEqual(
      ['1280.avif', '1280.jpeg', '1280.webp', '320.avif', '320.jpeg', '320.webp', '640.avif', '640.jpeg', '640.webp'].sort(),
    );
    const dto = t.app.media.toDto(row);
    expect(dto.imageUrl).toMatch(/^\/media\/public\/[a-f0-9]{64}-1280\.jpg$/);
    expect(dto.sha256).toBe(sha256(bytes));
    for (const v of dto.variants) {
      const res = await t.app.inject({ method: 'GET', url: v.url });
      expect(res.statusCode, v.url).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=600');
      expect(res.headers['content-type']).toBe({ webp: 'image/webp', avif: 'image/avif', jpeg: 'image/jpeg' }[v.format]);
      // The name is random: it says nothing about the bytes (the original's SHA-256 is what the record shows).
      expect(v.url).not.toContain(sha256(res.rawPayload));
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta.format).toBe(v.format === 'avif' ? 'heif' : v.format);
      expect(meta.width).toBe(v.width);
      expect(meta.exif, v.url).toBeUndefined();
      expect(meta.xmp, v.url).toBeUndefined();
      expect(meta.iptc, v.url).toBeUndefined();
    }
    // The original does carry the metadata the copies lost.
    expect((await sharp(bytes).metadata()).exif).toBeDefined();
  });

  it('keeps capture time, GPS and device for editors only', async () => {
    expect(row.restricted).toMatchObject({
      capturedAt: '2021-01-05T12:30:00.000Z',
      make: 'SampleCam',
      model: 'Test Phone 7',
      gps: { latitude: expect.closeTo(11.59, 4), longitude: expect.closeTo(37.39, 4) },
    });
    expect(t.app.media.toDto(row)).not.toHaveProperty('restricted');
    expect(t.app.media.toDto(row, { restricted: true }).restricted?.gps?.latitude).toBeCloseTo(11.59, 4);
    expect(t.app.media.restrictedFor(actorOf(owner), row, { userId: owner.id })?.model).toBe('Test Phone 7');
    expect(t.app.media.restrictedFor(actorOf(admin), row, { userId: owner.id })?.model).toBe('Test Phone 7');
    expect(t.app.media.restrictedFor(actorOf(other), row, { userId: owner.id })).toBeNull();
    expect(t.app.media.restrictedFor(null, row, { userId: owner.id })).toBeNull();
  });

  it('applies the EXIF orientation before resizing', async () => {
    const rotated = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#224466' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const r = await t.app.media.ingest(upload(rotated, 'rotated.jpg', 'image/jpeg'), { recordId, role: 'gallery', position: 1, uploadedBy: owner.id, accept: 'image' });
    expect([r.width, r.height]).toEqual([200, 400]);
    // Narrower than 320: one copy per format at the image's own width, never enlarged.
    expect(new Set(r.variants.map((v) => v.width))).toEqual(new Set([200]));
    const jpeg = await t.app.inject({ method: 'GET', url: t.app.media.toDto(r).imageUrl });
    const meta = await sharp(jpeg.rawPayload).metadata();
    expect([meta.width, meta.height, meta.orientation]).toEqual([200, 400, undefined]);
  });

  it('accepts a PNG named .jpg by its real type', async () => {
    const png = await sharp({ create: { width: 500, height: 300, channels: 4, background: { r: 10, g: 200, b: 30, alpha: 0.5 } } }).png().toBuffer();
    const r = await t.app.media.ingest(upload(png, 'looks-like.jpg', 'image/jpeg'), { recordId, role: 'gallery', position: 2, uploadedBy: owner.id, accept: 'image' });
    expect(r.mime).toBe('image/png');
    expect(r.sha256).toBe(sha256(png));
    expect(new Set(r.variants.map((v) => v.width))).toEqual(new Set([320, 500]));
  });

  it('stores identical uploads once, but gives each its own public copies under names unrelated to the bytes', async () => {
    const again = await t.app.media.ingest(upload(bytes, 'same.jpg', 'image/jpeg'), { recordId, role: 'gallery', position: 3, uploadedBy: owner.id, accept: 'image' });
    expect(again.id).not.toBe(row.id);
    expect(again.storageKey).toBe(row.storageKey);
    expect(again.restricted).toEqual(row.restricted);
    expect(again.variants.map((v) => [v.width, v.format])).toEqual(row.variants.map((v) => [v.width, v.format]));
    const keys = new Set(row.variants.map((v) => v.key));
    expect(again.variants.filter((v) => keys.has(v.key))).toEqual([]);
    for (const v of again.variants) {
      const name = v.key.slice('public/'.length);
      const served = readFileSync(path.join(t.dataDir, 'media', v.key));
      expect(name.startsWith(createHash('sha256').update(served).digest('hex'))).toBe(false);
    }
  });
});

describe('rejected uploads leave nothing behind', () => {
  const opts = () => ({ recordId, role: 'cover' as const, position: 0, uploadedBy: owner.id, accept: 'image' as const });

  it('rejects a text file named .jpg with 400 keyed by the field', async () => {
    const before = { rows: await mediaRows(), originals: originalsStored().length };
    const err = await t.app.media
      .ingest(upload(Buffer.from('just some text, not a picture\n'.repeat(300)), 'photo.jpg', 'image/jpeg', 'files[]'), opts())
      .catch((e) => e);
    expect(err.statusCode).toBe(400);
    expect(err.body['files[]']).toMatch(/JPEG, PNG/);
    expect(await mediaRows()).toBe(before.rows);
    expect(originalsStored().length).toBe(before.originals);
    expect(uploadsLeft()).toEqual([]);
  });

  it('rejects a tiny file and an empty one', async () => {
    expect((await t.app.media.ingest(upload(Buffer.from('GIF'), 'a.gif', 'image/gif'), opts()).catch((e) => e)).statusCode).toBe(400);
    expect((await t.app.media.ingest(upload(Buffer.alloc(0), 'a.gif', 'image/gif'), opts()).catch((e) => e)).body.image).toMatch(/empty/);
  });

  it('rejects a video in an image field and an image with corrupt data', async () => {
    const webm = Buffer.concat([Buffer.from('1a45dfa3', 'hex'), Buffer.from('\x42\x82\x84webm'), Buffer.alloc(5000)]);
    expect((await t.app.media.ingest(upload(webm, 'x.jpg', 'image/jpeg'), opts()).catch((e) => e)).statusCode).toBe(400);
    const good = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#000' } }).png().toBuffer();
    const broken = Buffer.concat([good.subarray(0, 60), Buffer.alloc(6000, 7)]);
    const before = await mediaRows();
    const err = await t.app.media.ingest(upload(broken, 'broken.png', 'image/png'), opts()).catch((e) => e);
    expect(err.statusCode).toBe(400);
    expect(err.body.image).toMatch(/could not be read/);
    expect(await mediaRows()).toBe(before);
    expect(uploadsLeft()).toEqual([]);
  });

  it('rejects an image over MAX_IMAGE_MB with 413 and stores nothing', async () => {
    const big = await bigTestImage(800);
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const before = { rows: await mediaRows(), originals: originalsStored().length };
    const err = await t.app.media.ingest(upload(big, 'big.png', 'image/png'), opts()).catch((e) => e);
    expect(err.statusCode).toBe(413);
    expect(err.body.image).toMatch(/larger than the limit of 1 MB/);
    expect(await mediaRows()).toBe(before.rows);
    expect(originalsStored().length).toBe(before.originals);
    expect(uploadsLeft()).toEqual([]);
  });
});

describe('public file route', () => {
  let url: string;
  let bytes: Buffer;
  beforeAll(async () => {
    const png = await sharp({ create: { width: 700, height: 400, channels: 3, background: '#123456' } }).png().toBuffer();
    const row = await t.app.media.ingest(upload(png, 'r.png', 'image/png'), { recordId, role: 'gallery', position: 4, uploadedBy: owner.id, accept: 'image' });
    url = t.app.media.toDto(row).imageUrl;
    bytes = (await t.app.inject({ method: 'GET', url })).rawPayload;
  });

  it('answers Range requests with 206 and Content-Range', async () => {
    const res = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=10-109' } });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 10-109/${bytes.length}`);
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.rawPayload.equals(bytes.subarray(10, 110))).toBe(true);
    const tail = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=-16' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(bytes.subarray(bytes.length - 16))).toBe(true);
    const open = await t.app.inject({ method: 'GET', url, headers: { range: `bytes=${bytes.length - 5}-` } });
    expect(open.rawPayload.length).toBe(5);
    const outside = await t.app.inject({ method: 'GET', url, headers: { range: `bytes=${bytes.length}-` } });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${bytes.length}`);
  });

  it('answers HEAD and conditional requests', async () => {
    const head = await t.app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(bytes.length);
    const etag = head.headers.etag as string;
    const again = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
  });

  it('serves nothing but public copies: no traversal, no listing, no originals', async () => {
    const [row] = await t.app.db.select().from(media).where(eq(media.kind, 'image')).limit(1);
    const original = Buffer.concat(await (await t.app.media.storage.get(row!.storageKey)).toArray());
    const canary = `canary-${Math.random()}`;
    writeFileSync(path.join(t.dataDir, 'canary.txt'), canary);
    writeFileSync(path.join(t.dataDir, 'media', 'canary.txt'), canary);
    const rest = row!.storageKey.slice('originals/'.length);
    const paths = [
      '/media/public/',
      '/media/public',
      '/media/public/..%2F..%2Fcanary.txt',
      '/media/public/..%2Fcanary.txt',
      '/media/public/%2e%2e%2fcanary.txt',
      `/media/public/..%2Foriginals%2F${rest.replace('/', '%2F')}`,
      '/media/public/%2e%2e/%2e%2e/canary.txt',
      `/media/public/../originals/${rest}`,
      `/media/${row!.storageKey}`,
      `/media/originals/${rest}`,
      `/media/public/${row!.sha256}`,
      `/media/public/${row!.sha256}.jpg`,
      `/media/public/${row!.sha256}.png`,
      `/media/public/${'a'.repeat(64)}-320.webp`,
    ];
    for (const p of paths) {
      const res = await t.app.inject({ method: 'GET', url: p });
      // Clients normalise "%2e%2e/" segments away, landing on a page of the web app: that is not a file.
      if (res.statusCode === 200) expect(res.headers['content-type'], p).toMatch(/^text\/html/);
      else expect(res.statusCode, p).toBe(404);
      expect(res.body.includes(canary), p).toBe(false);
      expect(res.rawPayload.includes(original.subarray(0, 64)), p).toBe(false);
    }
  });
});

describe('graphic flag', () => {
  let mediaId: string;
  beforeAll(async () => {
    const png = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#440000' } }).png().toBuffer();
    mediaId = (await t.app.media.ingest(upload(png, 'g.png', 'image/png'), { recordId, role: 'gallery', position: 5, uploadedBy: owner.id, accept: 'image' })).id;
  });
  const put = (id: string, body: unknown, headers = {}) => call(t.app, { method: 'PUT', url: `${API_BASE}/images/${id}/graphic`, payload: body as object, headers });

  it('lets the owner and admins set it, with an audit entry', async () => {
    const res = await put(mediaId, { graphic: true }, owner.auth);
    expect(res.status).toBe(200);
    expect(res.body.graphic).toBe(true);
    const [entry] = await t.app.db.select().from(auditLog).where(eq(auditLog.subject, `media:${mediaId}`));
    expect(entry).toMatchObject({ action: 'media.graphic', actorId: owner.id, recordId, changes: { graphic: { before: false, after: true } } });
    expect((await put(mediaId, { graphic: false }, admin.auth)).body.graphic).toBe(false);
    expect((await t.app.media.get(mediaId))!.graphic).toBe(false);
  });

  it('refuses others, anonymous requests and bad input', async () => {
    expect((await put(mediaId, { graphic: true }, other.auth)).status).toBe(403);
    expect((await put(mediaId, { graphic: true })).status).toBe(401);
    expect((await put(mediaId, { graphic: 'yes' }, owner.auth)).status).toBe(400);
    expect((await put('not-a-uuid', { graphic: true }, owner.auth)).status).toBe(400);
    expect((await put('00000000-0000-4000-8000-000000000000', { graphic: true }, owner.auth)).status).toBe(404);
    expect((await t.app.media.get(mediaId))!.graphic).toBe(false);
  });
});

const tools = findFfmpeg();
describe.skipIf(!tools)('video processing (ffmpeg)', () => {
  let videoBytes: Buffer;
  let rowId: string;
  beforeAll(async () => {
    const file = path.join(t.dataDir, 'sample-input.mp4');
    execFileSync(tools!.ffmpeg, [
      '-hide_banner', '-loglevel', 'error', '-y',
      '-f', 'lavfi', '-i', 'testsrc=duration=2:size=320x240:rate=15',
      '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest',
      '-metadata', 'location=+11.5900+037.3900/', '-metadata', 'creation_time=2021-01-05T12:30:00Z',
      file,
    ]);
    videoBytes = readFileSync(file);
    rmSync(file);
  });

  it('stores the video as uploaded, queues a job, then makes a web MP4 and a poster', async () => {
    const row = await t.app.media.ingest(upload(videoBytes, 'clip.mov', 'video/quicktime'), { recordId, role: 'video', position: 0, uploadedBy: owner.id, accept: 'video' });
    rowId = row.id;
    expect(row.mime).toBe('video/mp4');
    expect(row.sha256).toBe(sha256(videoBytes));
    expect(row.status).toBe('queued');
    expect(t.app.media.toDto(row)).toMatchObject({ status: 'queued', imageUrl: '', kind: 'video' });
    const [job] = await t.app.db.select().from(jobs).where(eq(jobs.kind, 'video.process'));
    expect(job).toMatchObject({ state: 'queued', payload: { mediaId: row.id } });

    expect(await t.app.jobs.drain()).toBeGreaterThanOrEqual(1);
    const done = (await t.app.media.get(row.id))!;
    expect(done.status).toBe('ready');
    expect((await t.app.db.select().from(jobs).where(eq(jobs.id, job!.id)))[0]!.state).toBe('done');
    expect(done.restricted).toMatchObject({ capturedAt: '2021-01-05T12:30:00.000Z', gps: { latitude: 11.59, longitude: 37.39 } });
    const dto = t.app.media.toDto(done);
    expect(dto.imageUrl).toMatch(/^\/media\/public\/[a-f0-9]{64}\.mp4$/);
    expect(dto.posterUrl).toMatch(/^\/media\/public\/[a-f0-9]{64}-320\.jpg$/);
    expect([dto.width, dto.height]).toEqual([320, 240]);

    const poster = await t.app.inject({ method: 'GET', url: dto.posterUrl! });
    expect(poster.statusCode).toBe(200);
    expect((await sharp(poster.rawPayload).metadata()).width).toBe(320);

    const mp4 = await t.app.inject({ method: 'GET', url: dto.imageUrl });
    expect(mp4.statusCode).toBe(200);
    expect(mp4.headers['content-type']).toBe('video/mp4');
    const out = path.join(t.dataDir, 'served.mp4');
    writeFileSync(out, mp4.rawPayload);
    const probe = JSON.parse(
      execFileSync(tools!.ffprobe ?? 'ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', out]).toString(),
    );
    rmSync(out);
    expect(probe.streams.map((s: { codec_name: string }) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    // No location or creation time carried into the public copy.
    expect(JSON.stringify(probe.format.tags ?? {})).not.toMatch(/location|creation_time|11\.59/);
    // faststart: the index (moov) comes before the media data (mdat).
    expect(mp4.rawPayload.indexOf('moov')).toBeLessThan(mp4.rawPayload.indexOf('mdat'));

    // Seeking: a range in the middle of the video.
    const seek = await t.app.inject({ method: 'GET', url: dto.imageUrl, headers: { range: 'bytes=1000-1999' } });
    expect(seek.statusCode).toBe(206);
    expect(seek.rawPayload.equals(mp4.rawPayload.subarray(1000, 2000))).toBe(true);
  });

  it('without ffmpeg serves the video as uploaded and says why', async () => {
    const plain = new MediaService(t.app.db, t.app.media.storage, { ffmpeg: null, tmpDir: path.join(t.dataDir, 'tmp', 'uploads') });
    const row = await plain.ingest(upload(videoBytes, 'clip.mp4', 'video/mp4'), { recordId, role: 'video', position: 1, uploadedBy: owner.id, accept: 'video' });
    await plain.processVideo(row.id);
    const done = (await plain.get(row.id))!;
    expect(done.status).toBe('ready');
    expect(plain.toDto(done, { restricted: true }).statusReason).toMatch(/ffmpeg is not installed/);
    const res = await t.app.inject({ method: 'GET', url: plain.toDto(done).imageUrl });
    expect(sha256(res.rawPayload)).toBe(sha256(videoBytes));
  });

  it('marks a video that cannot be processed as failed after the last attempt', async () => {
    const broken = Buffer.concat([videoBytes.subarray(0, 5000), Buffer.alloc(3000)]);
    const row = await t.app.media.ingest(upload(broken, 'broken.mp4', 'video/mp4'), { recordId, role: 'video', position: 2, uploadedBy: owner.id, accept: 'video' });
    await expect(t.app.media.processVideo(row.id, { attempts: 1 })).rejects.toThrow();
    expect((await t.app.media.get(row.id))!.status).toBe('queued');
    await expect(t.app.media.processVideo(row.id, { attempts: 3 })).rejects.toThrow(/ffmpeg|ffprobe/);
    const failed = (await t.app.media.get(row.id))!;
    expect(failed.status).toBe('failed');
    expect(failed.statusReason).toBeTruthy();
    expect(rowId).toBeTruthy();
  });

  it('rejects a video over MAX_VIDEO_MB with 413', async () => {
    const big = Buffer.concat([videoBytes, Buffer.alloc(3 * 1024 * 1024)]);
    const err = await t.app.media.ingest(upload(big, 'big.mp4', 'video/mp4', 'image'), { recordId, role: 'video', position: 3, uploadedBy: owner.id, accept: 'video' }).catch((e) => e);
    expect(err.statusCode).toBe(413);
    expect(err.body.image).toMatch(/video is larger than the limit of 3 MB/);
  });
});
if (!tools) it.skip('video processing: needs ffmpeg, which is not installed here (CI installs it)', () => {});

describe('fixity check', () => {
  it('reports intact, changed and missing originals (endpoint and command)', async () => {
    const a = await t.app.media.ingest(upload(await sharp({ create: { width: 50, height: 50, channels: 3, background: '#010203' } }).png().toBuffer(), 'a.png', 'image/png'), { recordId, role: 'gallery', position: 6, uploadedBy: owner.id, accept: 'image' });
    const b = await t.app.media.ingest(upload(await sharp({ create: { width: 50, height: 50, channels: 3, background: '#030201' } }).png().toBuffer(), 'b.png', 'image/png'), { recordId, role: 'gallery', position: 7, uploadedBy: owner.id, accept: 'image' });

    const clean = await call(t.app, { method: 'GET', url: `${API_BASE}/media/verify`, headers: admin.auth });
    expect(clean.status).toBe(200);
    expect(clean.body.checked).toBe(await mediaRows());
    expect(clean.body).toMatchObject({ mismatched: [], missing: [] });
    expect(clean.body.ok).toBe(clean.body.checked);

    writeFileSync(path.join(t.dataDir, 'media', a.storageKey), 'tampered');
    rmSync(path.join(t.dataDir, 'media', b.storageKey));
    const res = await call(t.app, { method: 'GET', url: `${API_BASE}/media/verify`, headers: admin.auth });
    expect(res.body.mismatched).toEqual([{ id: a.id, key: a.storageKey, expected: a.sha256, actual: sha256(Buffer.from('tampered')) }]);
    expect(res.body.missing).toEqual([{ id: b.id, key: b.storageKey }]);

    const lines: string[] = [];
    expect(await runMediaVerify(t.config, t.database, (l) => lines.push(l))).toBe(1);
    expect(lines.join('\n')).toMatch(new RegExp(`CHANGED .*${a.id}[\\s\\S]*|MISSING .*${b.id}`));
    expect(lines.find((l) => l.startsWith('Checked'))).toMatch(/1 changed, 1 missing/);
    // Every stored file is one a row names: no orphans (disk-faults.test.ts lists some).
    expect(lines.at(-1)).toMatch(/^0 stored files no record names/);

    expect((await call(t.app, { method: 'GET', url: `${API_BASE}/media/verify`, headers: owner.auth })).status).toBe(403);
    expect((await call(t.app, { method: 'GET', url: `${API_BASE}/media/verify` })).status).toBe(401);
  });
});

describe('sample images', () => {
  it('attaches a labelled SAMPLE picture to image categories and two to gallery categories', async () => {
    const rows = await t.app.db
      .insert(records)
      .values([
        { category: 'orphans', title: 'Sample orphan', description: 'Sample', userId: owner.id, sample: true },
        { category: 'events', title: 'Sample event', description: 'Sample', userId: owner.id, sample: true },
        { category: 'videos', title: 'Sample video', description: 'Sample', userId: owner.id, sample: true },
      ])
      .returning({ id: records.id, category: records.category });
    const started = Date.now();
    expect(await attachSampleImages(t.app.media, rows, owner.id)).toBe(3);
    console.log(`sample images for 2 records: ${Date.now() - started} ms`);
    const files = await t.app.media.forRecords(rows.map((r) => r.id));
    expect(files.get(rows[0]!.id)!.map((f) => f.role)).toEqual(['cover']);
    expect(files.get(rows[1]!.id)!.map((f) => f.role)).toEqual(['gallery', 'gallery']);
    expect(files.get(rows[2]!.id)).toBeUndefined();
    const cover = t.app.media.toDto(files.get(rows[0]!.id)![0]!);
    expect(cover.caption).toBe('Sample image');
    const served = await t.app.inject({ method: 'GET', url: cover.imageUrl });
    const { width, height } = await sharp(served.rawPayload).metadata();
    expect([width, height]).toEqual([640, 360]);
    // A flat colour with white lettering: the middle row has both the background and near-white pixels.
    const { data, info } = await sharp(served.rawPayload).extract({ left: 0, top: 180, width: 640, height: 1 }).raw().toBuffer({ resolveWithObject: true });
    const whites = Array.from({ length: info.width }, (_, x) => data[x * info.channels]!).filter((r) => r > 200).length;
    expect(whites).toBeGreaterThan(50);
    expect(whites).toBeLessThan(560);
  });
});

describe('staging folder', () => {
  it('removes files a crashed upload left behind, keeping recent ones', async () => {
    const dir = path.join(t.dataDir, 'tmp', 'uploads');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'old.upload'), 'left by a crash');
    writeFileSync(path.join(dir, 'recent.upload'), 'in progress');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60_000);
    utimesSync(path.join(dir, 'old.upload'), twoDaysAgo, twoDaysAgo);
    expect(await t.app.media.cleanStaging()).toBe(1);
    expect(readdirSync(dir)).toEqual(['recent.upload']);
    rmSync(path.join(dir, 'recent.upload'));
  });
});
