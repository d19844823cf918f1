/**
 * A testimony with a 50 MB video, streamed through the form's API into sealed storage: the throughput of the
 * submission (multipart parsing, type sniffing, hashing, XChaCha20-Poly1305 secretstream, writing) and the server's
 * resident memory while it streams, which must stay bounded (the file is never held whole). Target: >= 20 MB/s.
 *
 *   node --import tsx bench/testimony.ts [--mb=50]        # prints a table, and a JSON line last (npm run bench reads it)
 *
 * The server runs in this process on an in-memory PGlite database, with a temporary data folder; the request is sent
 * over a real socket, generated as it is sent, so the client holds one 1 MiB chunk at a time.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { solveChallenge } from 'altcha-lib/v1';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/index';
import { createIntakeKey } from '../apps/server/src/modules/testimony/keys';

const MB = Number(process.argv.find((a) => a.startsWith('--mb='))?.slice(5) ?? 50);
const TARGET_MBPS = 20;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'testimony-bench-'));
const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', JWT_SECRET: 'b'.repeat(40), TESTIMONY_MAX_FILE_MB: String(MB + 10), TESTIMONY_MAX_TOTAL_MB: String(MB + 10) });
const database = await openDatabase({});
const app = await buildApp({ config, database, runJobs: false, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as { port: number }).port;
await createIntakeKey(app.db, null, 'bench passphrase, not a real one');

const challenge = (await app.inject({ method: 'GET', url: '/api/v1.0.0/testimonies/challenge' })).json();
const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber).promise;
const altcha = Buffer.from(JSON.stringify({ ...challenge, number: solution!.number, maxnumber: undefined })).toString('base64');

const boundary = '----testimonybench';
const head = Buffer.from(
  `--${boundary}\r\ncontent-disposition: form-data; name="altcha"\r\n\r\n${altcha}\r\n` +
    `--${boundary}\r\ncontent-disposition: form-data; name="statement"\r\n\r\nBench statement - not real\r\n` +
    `--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="bench.mp4"\r\ncontent-type: video/mp4\r\n\r\n`,
);
const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
// An MP4's first box (ftyp isom), then noise: file-type recognises the video by its first bytes.
const ftyp = Buffer.from('0000001866747970697336d00000000069736f6d6d703432', 'hex');
const chunk = randomBytes(1024 * 1024);
const fileBytes = MB * 1024 * 1024;

global.gc?.();
const rssBefore = process.memoryUsage().rss;
let rssPeak = rssBefore;
const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 50);
const started = performance.now();
const status = await new Promise<number>((resolve, reject) => {
  const req = http.request({ port, method: 'POST', path: '/api/v1.0.0/testimonies', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + fileBytes + tail.length } }, (res) => {
    res.resume();
    res.on('end', () => resolve(res.statusCode ?? 0));
  });
  req.on('error', reject);
  let sent = 0;
  const write = () => {
    while (sent < fileBytes) {
      const piece = sent === 0 ? Buffer.concat([ftyp, chunk.subarray(ftyp.length)]) : chunk;
      const n = Math.min(piece.length, fileBytes - sent);
      sent += n;
      if (!req.write(piece.subarray(0, n))) return void req.once('drain', write);
    }
    req.end(tail);
  };
  req.write(head);
  write();
});
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
await app.close();
await database.close();
rmSync(dataDir, { recursive: true, force: true });

const mbps = MB / seconds;
const growthMb = (rssPeak - rssBefore) / 1024 / 1024;
console.log(`Testimony submission, ${MB} MB video: HTTP ${status}, ${seconds.toFixed(2)} s, ${mbps.toFixed(1)} MB/s (target >= ${TARGET_MBPS}: ${mbps >= TARGET_MBPS ? 'met' : 'NOT met'})`);
console.log(`  resident memory: ${(rssBefore / 1024 / 1024).toFixed(0)} MB before, peak ${(rssPeak / 1024 / 1024).toFixed(0)} MB (+${growthMb.toFixed(0)} MB while streaming ${MB} MB)`);
console.log(JSON.stringify({ testimony: { status, mb: MB, seconds, mbps, rssBeforeMb: rssBefore / 1048576, rssPeakMb: rssPeak / 1048576, target: TARGET_MBPS, met: status === 201 && mbps >= TARGET_MBPS } }));
process.exit(status === 201 ? 0 : 1);
