/**
 * Captures with and without their web archive: captures the test page of twenty images (served here on loopback)
 * `--runs` times in headless Chromium, and prints the time of the capture alone (snapshot, screenshot, headers, as
 * before the WACZ) and of the WARC and signed WACZ made from it, with the stored sizes of each. The browser is started
 * once before the runs. `--out=<file.wacz>` keeps the last WACZ.
 *
 *   node --import tsx bench/capture-wacz.ts [--runs=5] [--out=/tmp/capture.wacz]
 *
 * The page is test content (images of flat colours); no time-stamping authority is asked (that is a network round trip).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { AddressPolicy } from '../apps/server/src/modules/captures/address-policy';
import { PageCapturer } from '../apps/server/src/modules/captures/browser';
import { CaptureSigner } from '../apps/server/src/modules/captures/signing';
import { writeWarc } from '../apps/server/src/modules/captures/warc';
import { packageWacz } from '../apps/server/src/modules/captures/wacz';

const option = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=').slice(1).join('=') ?? fallback;
const RUNS = Number(option('runs', '5'));
const OUT = option('out', '');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const images = await Promise.all(
  Array.from({ length: 20 }, (_, i) => sharp({ create: { width: 120, height: 90, channels: 3, background: { r: i * 12, g: 90, b: 160 } } }).png().toBuffer()),
);
const server = http.createServer((req, res) => {
  const img = /^\/img\/(\d+)\.png$/.exec(req.url ?? '');
  if (img) return res.writeHead(200, { 'content-type': 'image/png' }).end(images[Number(img[1])]);
  const tags = images.map((_, i) => `<img src="/img/${i}.png" alt="test image ${i}">`).join('');
  return res
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    .end(`<!doctype html><html><head><title>Twenty images</title></head><body><h1>Test content: a page of twenty images</h1>${tags}</body></html>`);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-capture-'));
const capturer = new PageCapturer({
  browserPath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  timeoutMs: 60_000,
  maxBytes: 50 * 1024 * 1024,
  policy: new AddressPolicy([host]),
  isolation: 'none',
});
const signer = CaptureSigner.forDataDir(dataDir);
const url = `http://${host}/twenty`;
try {
  await capturer.capture(url); // starts the browser
  const captureMs: number[] = [];
  const archiveMs: number[] = [];
  let sizes = { without: 0, wacz: 0 };
  let last: Buffer | null = null;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const page = await capturer.capture(url);
    const captured = performance.now();
    const warc = await writeWarc(page.exchanges, { software: 'bench', filename: 'capture.warc.gz', settings: page.settings }, { finalUrl: page.finalUrl });
    const { wacz } = await packageWacz(warc, { url: page.finalUrl, title: page.title, capturedAt: page.capturedAt }, { signer, software: 'bench' });
    captureMs.push(captured - start);
    archiveMs.push(performance.now() - captured);
    sizes = { without: page.snapshot.length + page.screenshot.length + page.headers.length, wacz: wacz.length };
    last = wacz;
  }
  const c = median(captureMs);
  const a = median(archiveMs);
  console.log(`capture of the 20-image page, median of ${RUNS} (browser running):`);
  console.log(`  without the WACZ: ${c.toFixed(0)} ms, ${sizes.without} bytes stored (snapshot, screenshot, headers)`);
  console.log(`  with the WACZ:    ${(c + a).toFixed(0)} ms (+${a.toFixed(0)} ms for WARC and signed WACZ, ${((a / c) * 100).toFixed(0)}%), ${sizes.without + sizes.wacz} bytes (+${sizes.wacz} the WACZ, ${((sizes.wacz / sizes.without) * 100).toFixed(0)}%)`);
  if (OUT && last) writeFileSync(OUT, last);
} finally {
  await capturer.close();
  server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
