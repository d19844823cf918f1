// Throughput of anonymous reads: the site (cached, and past its cache) against nginx sending the very same gzip
// bytes from files. wrk -t1 -c32 on loopback, Accept-Encoding: gzip.
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { get } from './http.mjs';
import { startNginx } from './nginx.mjs';
import { currentRss, peakRss, resetPeakRss } from './proc.mjs';
import { fmt, table } from './stats.mjs';
import { runWrk } from './wrk.mjs';

const API = '/api/v1.0.0';

/** The site's gzip answer for `url` (warming its cache on the way); gzipped here only if the site sent it plain. */
async function gzipBytesOf(url) {
  await get(url);
  const res = await get(url);
  if (res.status !== 200) throw new Error(`${url}: status ${res.status}`);
  const encoding = res.headers['content-encoding'] ?? 'identity';
  return { gz: encoding === 'gzip' ? res.body : gzipSync(res.body), encoding, etag: res.headers.etag ?? null, cacheControl: res.headers['cache-control'] ?? null };
}

export async function runHttp({ site, work, durationS, connections }) {
  const listPath = `${API}/victims?limit=50`;
  const list = await gzipBytesOf(`${site.url}${listPath}`);
  const firstId = JSON.parse(gunzipSync(list.gz).toString('utf8'))[0]?._id;
  if (!firstId) throw new Error('the list is empty: nothing to measure');
  const detailPath = `${API}/victims/${firstId}`;
  const detail = await gzipBytesOf(`${site.url}${detailPath}`);
  const notes = [];
  for (const [name, r] of [['list', list], ['detail', detail]]) {
    if (r.encoding !== 'gzip') notes.push(`the site sent the ${name} with Content-Encoding: ${r.encoding}; nginx serves a gzip of those bytes`);
  }

  const nginx = await startNginx({ workDir: path.join(work, 'nginx'), files: { 'list.json': list.gz, 'detail.json': detail.gz } });
  const rows = [];
  const runs = {};
  try {
    const check = await get(`${nginx.url}/list.json`);
    if (check.headers['content-encoding'] !== 'gzip' || !check.body.equals(list.gz)) notes.push('nginx did not send the stored gzip bytes unchanged');
    const cases = [
      ['list page 1', 'site (cached)', `${site.url}${listPath}`, false, site.pid],
      ['list page 1', 'site (uncached)', `${site.url}${listPath}`, true, site.pid],
      ['list page 1', 'nginx gzip_static', `${nginx.url}/list.json`, false, null],
      ['detail', 'site (cached)', `${site.url}${detailPath}`, false, site.pid],
      ['detail', 'site (uncached)', `${site.url}${detailPath}`, true, site.pid],
      ['detail', 'nginx gzip_static', `${nginx.url}/detail.json`, false, null],
    ];
    for (const [target, server, url, uniquePaths, pid] of cases) {
      if (pid) resetPeakRss(pid);
      const result = await runWrk({ url, durationS, connections, uniquePaths, scriptFile: path.join(work, 'unique.lua') });
      const peak = pid ? peakRss(pid) : null;
      delete result.raw;
      runs[`${target} | ${server}`] = { ...result, peakRssBytes: peak, rssAfterBytes: pid ? currentRss(pid) : null };
      process.stdout.write(`  ${target}, ${server}: ${fmt.n(result.requestsPerSec)} req/s\n`);
    }
  } finally {
    await nginx.stop();
  }

  for (const [key, r] of Object.entries(runs)) {
    const [target, server] = key.split(' | ');
    const reference = runs[`${target} | nginx gzip_static`]?.requestsPerSec;
    r.ratioToNginx = reference ? r.requestsPerSec / reference : null;
    rows.push([
      target,
      server,
      fmt.n(r.requestsPerSec),
      fmt.ms(r.p50Ms),
      fmt.ms(r.p99Ms),
      `${r.non2xx}/${r.socketErrors}`,
      fmt.mb(r.peakRssBytes),
      r.ratioToNginx === null ? null : `${(r.ratioToNginx * 100).toFixed(0)} %`,
    ]);
  }
  console.log(`\nwrk -t1 -c${connections} -d${durationS}s --latency, Accept-Encoding: gzip (list ${fmt.n(list.gz.length)} B gzip, detail ${fmt.n(detail.gz.length)} B gzip)`);
  console.log(table(['read', 'server', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx/socket err', 'peak RSS MB', 'of nginx'], rows));
  for (const note of notes) console.log(`Note: ${note}`);
  return {
    listBytesGzip: list.gz.length,
    detailBytesGzip: detail.gz.length,
    listCacheControl: list.cacheControl,
    listEtag: Boolean(list.etag),
    runs,
    notes,
  };
}
