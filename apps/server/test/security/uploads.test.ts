import { createDeflate, crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { API_BASE, CATEGORIES } from '@app/shared';
import { call, createTestApp, createUser, type TestApp } from '../helpers';
import { multipart, sampleFields } from '../records-helpers';
import { dbState } from './db-state';

/**
 * Hostile uploads: polyglots (markup or script named .jpg, a JPEG with a PHP tail), truncated and
 * empty files, decompression bombs (a PNG that declares 50,000 x 50,000 pixels in a few KB) and an MP4 whose header
 * lies are refused, or stored with public copies that carry none of the hostile bytes; the process's memory stays
 * bounded while it refuses them. Test data only.
 */

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/**
 * A PNG header claiming `width` x `height` 8-bit grey pixels (2.5 GB decoded at 50,000 square), with `rows` rows of
 * compressed zeros: a few KB on the wire. A decoder that trusts the header allocates the whole image first.
 */
async function pngBomb(width: number, height: number, rows: number): Promise<Buffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  // Row by row, so the test itself never holds the decoded size in memory (it shares the process being measured).
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (b: Buffer) => out.push(b));
  const row = Buffer.alloc(width + 1);
  for (let i = 0; i < rows; i++) if (!deflate.write(row)) await new Promise((r) => deflate.once('drain', r));
  await new Promise((r) => {
    deflate.once('end', r);
    deflate.end();
  });
  const idat = Buffer.concat(out);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

describe('hostile uploads are refused or stored without their hostile bytes', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  let jpeg: Buffer;
  const rss = { base: 0, peak: 0 };
  let sampler: NodeJS.Timeout;

  beforeAll(async () => {
    t = await createTestApp();
    auth = (await createUser(t.app, 'contributor')).auth;
    jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 120, g: 30, b: 30 } } }).jpeg().toBuffer();
  });
  afterAll(async () => t?.close());

  const upload = (slug: 'victims' | 'videos', filename: string, type: string, data: Buffer) => {
    const body = multipart(sampleFields(CATEGORIES[slug], 'Upload test'), [{ field: 'image', filename, type, data }]);
    return call(t.app, { method: 'POST', url: `${API_BASE}/${slug}`, headers: { ...auth, ...body.headers }, payload: body.payload });
  };

  /** Every public copy of a stored record, fetched as a visitor would. */
  async function publicCopies(record: { images?: { imageUrl?: string; variants?: { url: string }[]; posterUrl?: string }[] }) {
    const urls = new Set<string>();
    for (const image of record.images ?? []) {
      for (const url of [image.imageUrl, image.posterUrl, ...(image.variants ?? []).map((v) => v.url)]) if (url) urls.add(url);
    }
    return Promise.all([...urls].map(async (url) => ({ url, res: await t.app.inject({ method: 'GET', url }) })));
  }

  const hostile: { name: string; slug: 'victims' | 'videos'; filename: string; type: string; data: () => Buffer | Promise<Buffer> }[] = [
    { name: 'HTML with a script, named .jpg', slug: 'victims', filename: 'photo.jpg', type: 'image/jpeg', data: () => Buffer.from('<!doctype html><html><body><script>alert(document.domain)</script></body></html>') },
    {
      name: 'SVG with a script, named .jpg',
      slug: 'victims',
      filename: 'photo.jpg',
      type: 'image/jpeg',
      data: () => Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="alert(1)"><script>alert(2)</script><rect width="10" height="10"/></svg>'),
    },
    { name: 'SVG named .svg', slug: 'victims', filename: 'drawing.svg', type: 'image/svg+xml', data: () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>') },
    { name: 'GIF header with a JavaScript body', slug: 'victims', filename: 'x.gif', type: 'image/gif', data: () => Buffer.from('GIF89a/*\x00\x00\x00\x00*/=alert(1);//') },
    { name: 'zero-byte file', slug: 'victims', filename: 'empty.jpg', type: 'image/jpeg', data: () => Buffer.alloc(0) },
    { name: 'truncated JPEG', slug: 'victims', filename: 'cut.jpg', type: 'image/jpeg', data: () => jpeg.subarray(0, Math.floor(jpeg.length / 2)) },
    { name: 'PNG declaring 50,000 x 50,000 pixels', slug: 'victims', filename: 'bomb.png', type: 'image/png', data: () => pngBomb(50_000, 50_000, 64) },
    { name: 'PNG declaring 20,000 x 20,000 pixels (under 2^31 bytes)', slug: 'victims', filename: 'bomb2.png', type: 'image/png', data: () => pngBomb(20_000, 20_000, 64) },
    // Complete and valid, within sharp's default pixel limit: 256 MB of pixels from a file of about 250 KB.
    { name: 'complete PNG of 16,000 x 16,000 zero pixels', slug: 'victims', filename: 'bomb3.png', type: 'image/png', data: () => pngBomb(16_000, 16_000, 16_000) },
    {
      name: 'MP4 whose header lies (ftyp, then a 4 GB box of nothing)',
      slug: 'videos',
      filename: 'clip.mp4',
      type: 'video/mp4',
      data: () => Buffer.concat([Buffer.from('0000001866747970697336d000000000069736f6d6d703432', 'hex'), Buffer.from('ffffffff6d646174', 'hex'), Buffer.alloc(2048, 0x41)]),
    },
    { name: 'MP4 named video holding a PHP script', slug: 'videos', filename: 'clip.mp4', type: 'video/mp4', data: () => Buffer.from('<?php system($_GET["c"]); ?>') },
  ];

  it('refuses polyglots, empty, truncated and bomb files, or keeps none of their hostile bytes public; memory stays bounded', async () => {
    // Made before measuring: the test runs in the process whose memory is measured.
    const files = await Promise.all(hostile.map(async (f) => ({ ...f, bytes: await f.data() })));
    rss.base = process.memoryUsage().rss;
    rss.peak = rss.base;
    sampler = setInterval(() => (rss.peak = Math.max(rss.peak, process.memoryUsage().rss)), 5);
    const outcomes: string[] = [];
    try {
      for (const file of files) {
        const before = await dbState(t.database);
        const started = Date.now();
        const res = await upload(file.slug, file.filename, file.type, file.bytes);
        const ms = Date.now() - started;
        expect(res.status, `${file.name}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
        if (res.status >= 400) {
          // Refused: a clear field error, and nothing stored.
          expect(res.body.image, `${file.name}: ${JSON.stringify(res.body)}`).toEqual(expect.any(String));
          expect(await dbState(t.database), file.name).toEqual(before);
          outcomes.push(`${file.name}: ${res.status} "${res.body.image}" (${ms} ms)`);
          continue;
        }
        // Accepted (a file whose first bytes are a real video container): processing must not fail the server, and
        // what the public gets is a video with nosniff, never markup.
        await t.app.jobs.drain();
        const after = await call(t.app, { method: 'GET', url: `${API_BASE}/${file.slug}/${res.body._id}` });
        for (const { url, res: copy } of await publicCopies(after.body)) {
          expect(copy.statusCode, url).toBeLessThan(500);
          if (copy.statusCode === 200) {
            expect(copy.headers['content-type'], url).toMatch(/^(video|image)\//);
            expect(copy.headers['x-content-type-options']).toBe('nosniff');
            expect(copy.body).not.toMatch(/<\?php|<script/i);
          }
        }
        outcomes.push(`${file.name}: stored, status ${after.body.images?.[0]?.status}, public copies checked (${ms} ms)`);
      }

      // A real JPEG with a PHP tail is a JPEG: stored, and its public copies are re-encoded without the tail.
      const phpTail = Buffer.concat([jpeg, Buffer.from('<?php echo shell_exec($_GET["cmd"]); ?>')]);
      const res = await upload('victims', 'shell.php.jpg', 'image/jpeg', phpTail);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const copies = await publicCopies(res.body);
      expect(copies.length).toBeGreaterThan(0);
      for (const { url, res: copy } of copies) {
        expect(copy.statusCode, url).toBe(200);
        expect(copy.headers['content-type']).toMatch(/^image\/(jpeg|webp|avif)$/);
        expect(copy.headers['x-content-type-options']).toBe('nosniff');
        expect(copy.rawPayload.includes(Buffer.from('<?php')), url).toBe(false);
        expect(url).not.toMatch(/php/);
      }
      outcomes.push(`JPEG with a PHP tail: stored, ${copies.length} public copies re-encoded without the tail`);
    } finally {
      clearInterval(sampler);
    }
    const deltaMb = (rss.peak - rss.base) / 1024 / 1024;
    console.log(`uploads: ${hostile.length + 1} hostile files, peak RSS delta ${deltaMb.toFixed(0)} MB\n  ${outcomes.join('\n  ')}`);
    // Decoding the 50,000 x 50,000 image would take 2.5 GB; refusing it must not come near that.
    expect(deltaMb).toBeLessThan(300);
  });

  it('keeps memory bounded when several large images arrive at once', async () => {
    const big = await pngBomb(16_000, 16_000, 16_000);
    const base = process.memoryUsage().rss;
    let peak = base;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    let statuses: number[];
    try {
      statuses = (await Promise.all(Array.from({ length: 4 }, (_, i) => upload('victims', `big-${i}.png`, 'image/png', big)))).map((r) => r.status);
    } finally {
      clearInterval(timer);
    }
    const deltaMb = (peak - base) / 1024 / 1024;
    console.log(`uploads: 4 images of 16,000 x 16,000 pixels (${Math.round(big.length / 1024)} KB each) at once: statuses ${statuses.join(' ')}, peak RSS delta ${deltaMb.toFixed(0)} MB`);
    expect(statuses.every((s) => s === 201 || s === 400 || s === 413 || s === 503)).toBe(true);
    // Four at once took 317-332 MB (2026-11-25) when each copy decoded the original again, all at once; decoded once
    // per image and one image at a time, 200-220 MB, and it does not grow with the number of uploads in flight.
    expect(deltaMb).toBeLessThan(260);
  });
});
