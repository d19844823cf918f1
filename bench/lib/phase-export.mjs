// Open-data export at size: the whole collection streamed as CSV and as NDJSON, with the rows per second and the
// site's memory while it streams (the export reads a keyset batch at a time, so memory should stay flat at any size).
import { currentRss, peakRss, resetPeakRss } from './proc.mjs';
import { fmt, table } from './stats.mjs';

/** Downloads `url` to the end, counting lines, and samples the site's resident memory every 100 ms meanwhile. */
async function download(site, url) {
  resetPeakRss(site.pid);
  const before = currentRss(site.pid);
  const samples = [];
  const timer = setInterval(() => samples.push(currentRss(site.pid)), 100);
  const started = performance.now();
  let lines = 0;
  let bytes = 0;
  let firstByteMs = null;
  try {
    // Each run from its own address would need a proxy; the bench's few runs stay under the anonymous limit.
    const res = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    for await (const chunk of res.body) {
      firstByteMs ??= performance.now() - started;
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    }
  } finally {
    clearInterval(timer);
  }
  const seconds = (performance.now() - started) / 1000;
  const sampled = samples.filter((n) => n !== null);
  const third = Math.max(1, Math.floor(sampled.length / 3));
  const mean = (values) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  return {
    lines,
    bytes,
    seconds,
    firstByteMs,
    rowsPerS: lines / seconds,
    rssBefore: before,
    rssPeak: peakRss(site.pid),
    rssFirstThird: mean(sampled.slice(0, third)),
    rssLastThird: mean(sampled.slice(-third)),
  };
}

export async function runExport({ site, size }) {
  const out = {};
  for (const [name, path] of [
    ['csv', '/api/v1.0.0/export.csv'],
    ['ndjson', '/api/v1.0.0/export.ndjson'],
    ['csv, one region', '/api/v1.0.0/export.csv?region=amhara'],
  ]) {
    out[name] = await download(site, `${site.url}${path}`);
  }
  console.log(`\nExport of ${size.toLocaleString('en')} records (anonymous, uncompressed)`);
  console.log(
    table(
      ['export', 'rows', 'MB', 'seconds', 'rows/s', 'first byte', 'RSS before', 'RSS first third', 'RSS last third', 'RSS peak'],
      Object.entries(out).map(([name, r]) => [
        name,
        fmt.n(r.lines - (name.startsWith('csv') ? 1 : 0)),
        (r.bytes / 1e6).toFixed(1),
        r.seconds.toFixed(1),
        fmt.n(Math.round(r.rowsPerS)),
        fmt.ms(r.firstByteMs),
        fmt.mb(r.rssBefore),
        fmt.mb(r.rssFirstThird),
        fmt.mb(r.rssLastThird),
        fmt.mb(r.rssPeak),
      ]),
    ),
  );
  return out;
}
