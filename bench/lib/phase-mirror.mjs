// Issue 58: the weight of a reading page's HTML (brotli, against the 14 KB a server sends before its first
// acknowledgement: TCP's initial window of 10 segments), and the static mirror at size (`npm run admin -- mirror`):
// its time, the command's peak memory, and a second run that rewrites only what changed.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { peakRss } from './proc.mjs';
import { ROOT } from './site.mjs';
import { fmt, table } from './stats.mjs';

/** A reading page's HTML, brotli: at most this (issue 58 item 4). */
export const PAGE_HTML_TARGET_BYTES = 14 * 1024;
/** The mirror of 100k records: within this many seconds (issue 58 item 2). */
export const MIRROR_TARGET_SECONDS = 600;

const brotli = (text) => brotliCompressSync(Buffer.from(text), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

/** Home, a list page and a record page as an anonymous reader gets them, brotli-compressed as the server sends them. */
export async function runPageWeight({ site }) {
  const list = '/victims';
  const ids = await (await fetch(`${site.url}/api/v1.0.0/victims?limit=1`)).json();
  const pages = { home: '/', list, record: ids[0] ? `/victims/${ids[0]._id}` : null };
  const out = {};
  for (const [name, address] of Object.entries(pages)) {
    if (!address) continue;
    const res = await fetch(`${site.url}${address}`, { headers: { 'accept-encoding': 'identity' } });
    const html = await res.text();
    out[name] = { address, status: res.status, bytes: html.length, brotli: brotli(html) };
  }
  console.log(`\nReading pages' HTML (brotli, quality 11; target <= ${PAGE_HTML_TARGET_BYTES / 1024} KB each, the first round trip)`);
  console.log(
    table(
      ['page', 'address', 'HTML', 'brotli', 'target'],
      Object.entries(out).map(([name, r]) => [name, r.address, fmt.kb(r.bytes), fmt.kb(r.brotli), r.brotli <= PAGE_HTML_TARGET_BYTES ? 'met' : 'NOT met']),
    ),
  );
  return out;
}

/** Runs the mirror command on the bench's data folder, sampling its peak memory. */
function mirrorOnce({ dataDir, databaseUrl, out }) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'mirror', out], {
      cwd: path.join(ROOT, 'apps/server'),
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', NODE_ENV: 'production', PUBLIC_URL: 'https://mirror.bench.invalid', MAIL_OUTBOX: 'true', LOG_LEVEL: 'warn', SAMPLE_DATA: 'false', REDIS_URL: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let peak = 0;
    let stdout = '';
    const timer = setInterval(() => (peak = Math.max(peak, peakRss(child.pid) ?? 0)), 200);
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) return reject(new Error(`mirror exited with ${code}: ${stdout}`));
      const counts = /(\d+) pages, (\d+) files \((\d+) written, (\d+) unchanged, (\d+) removed\)/.exec(stdout) ?? [];
      resolve({ seconds: (performance.now() - started) / 1000, peakRss: peak, pages: Number(counts[1]), files: Number(counts[2]), written: Number(counts[3]) });
    });
  });
}

export async function runMirror({ dataDir, databaseUrl, size }) {
  const out = mkdtempSync(path.join(os.tmpdir(), 'bench-mirror-'));
  try {
    const first = await mirrorOnce({ dataDir, databaseUrl, out });
    const second = await mirrorOnce({ dataDir, databaseUrl, out });
    console.log(`\nStatic mirror of ${size.toLocaleString('en')} records (target at 100k: <= ${MIRROR_TARGET_SECONDS} s, memory bounded)`);
    console.log(
      table(
        ['run', 'seconds', 'pages', 'files', 'written', 'peak RSS'],
        [
          ['first', first.seconds.toFixed(1), fmt.n(first.pages), fmt.n(first.files), fmt.n(first.written), fmt.mb(first.peakRss)],
          ['again', second.seconds.toFixed(1), fmt.n(second.pages), fmt.n(second.files), fmt.n(second.written), fmt.mb(second.peakRss)],
        ],
      ),
    );
    const verdict = size >= 100_000 ? (first.seconds <= MIRROR_TARGET_SECONDS ? 'met' : 'NOT met') : 'judged at 100k';
    console.log(`Mirror time target (<= ${MIRROR_TARGET_SECONDS} s at 100k): ${verdict}, ${first.seconds.toFixed(0)} s`);
    return { first, second, verdict };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
