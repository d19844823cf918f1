// Throughput of anonymous reads: the site (cached, and past its cache) against nginx sending the very same gzip
// bytes from files, and against the least Node.js's own HTTP server can do with them (node-floor.mjs). wrk -t1 -c32 on
// loopback, Accept-Encoding: gzip.
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { get } from './http.mjs';
import { startNginx } from './nginx.mjs';
import { startNodeFloor } from './node-floor.mjs';
import { currentRss, peakRss, resetPeakRss } from './proc.mjs';
import { fmt, table } from './stats.mjs';
import { runWrk } from './wrk.mjs';
import { SEARCH_TARGETS } from './phase-search.mjs';
import { httpVerdicts, printVerdicts } from './targets.mjs';

const API = '/api/v1.0.0';

/** The site's gzip answer for `url` (warming its cache on the way); gzipped here only if the site sent it plain. */
async function gzipBytesOf(url) {
  await get(url);
  const res = await get(url);
  if (res.status !== 200) throw new Error(`${url}: status ${res.status}`);
  const encoding = res.headers['content-encoding'] ?? 'identity';
  return { gz: encoding === 'gzip' ? res.body : gzipSync(res.body), headers: res.headers, encoding, etag: res.headers.etag ?? null, cacheControl: res.headers['cache-control'] ?? null };
}

/** The round with the median requests/s (the middle one of an odd count, the lower middle of an even one). */
function medianRound(rounds) {
  const sorted = [...rounds].sort((a, b) => a.requestsPerSec - b.requestsPerSec);
  return { ...sorted[Math.floor((sorted.length - 1) / 2)], roundsRequestsPerSec: rounds.map((r) => r.requestsPerSec) };
}

export async function runHttp({ site, work, durationS, connections, rounds = 3, authorization, warmupS = Math.min(5, durationS) }) {
  const listPath = `${API}/victims?limit=50`;
  const list = await gzipBytesOf(`${site.url}${listPath}`);
  const firstId = JSON.parse(gunzipSync(list.gz).toString('utf8'))[0]?._id;
  if (!firstId) throw new Error('the list is empty: nothing to measure');
  const detailPath = `${API}/victims/${firstId}`;
  const detail = await gzipBytesOf(`${site.url}${detailPath}`);
  // A search with a common word and two facets, the case of the search target (phase-search.mjs).
  const searchPath = SEARCH_TARGETS.commonWordTwoFacets;
  const search = await gzipBytesOf(`${site.url}${searchPath}`);
  const notes = [];
  for (const [name, r] of [['list', list], ['detail', detail], ['search', search]]) {
    if (r.encoding !== 'gzip') notes.push(`the site sent the ${name} with Content-Encoding: ${r.encoding}; nginx serves a gzip of those bytes`);
  }

  const nginx = await startNginx({ workDir: path.join(work, 'nginx'), files: { 'list.json': list.gz, 'detail.json': detail.gz, 'search.json': search.gz } });
  const floor = await startNodeFloor({ workDir: work, answers: { '/list.json': list, '/detail.json': detail, '/search.json': search } }).catch(async (err) => {
    await nginx.stop();
    throw err;
  });
  const rows = [];
  const runs = {};
  const wrk = (url, uniquePaths, signedIn = false, uniqueFrom = 0, seconds = durationS) =>
    runWrk({ url, durationS: seconds, connections, uniquePaths, uniqueFrom, wrapAt: listTotal, authorization: signedIn ? authorization : null, scriptFile: path.join(work, 'unique.lua') });
  // The signed-in run of unique pages starts half way down the list, on pages the anonymous run did not ask for.
  const listTotal = Number((await get(`${site.url}${listPath}`)).headers['x-total-count'] ?? 0);
  try {
    const check = await get(`${nginx.url}/list.json`);
    if (check.headers['content-encoding'] !== 'gzip' || !check.body.equals(list.gz)) notes.push('nginx did not send the stored gzip bytes unchanged');
    const targets = [
      ['list page 1', `${site.url}${listPath}`, '/list.json'],
      ['detail', `${site.url}${detailPath}`, '/detail.json'],
      ['search, common word, two facets', `${site.url}${searchPath}`, '/search.json'],
    ];
    // The machine is shared: site, floor and nginx take turns, several rounds, so a burst of other work hits all alike.
    // Cached reads first, so the site's peak memory for them is not that of the uncached runs after.
    resetPeakRss(site.pid);
    for (const [target, siteUrl, file] of targets) {
      const series = { site: [], floor: [], nginx: [] };
      for (let round = 0; round < rounds; round++) {
        series.site.push(await wrk(siteUrl, false));
        series.floor.push(await wrk(`${floor.url}${file}`, false));
        series.nginx.push(await wrk(`${nginx.url}${file}`, false));
        process.stdout.write(
          `  ${target}, round ${round + 1}: site (cached) ${fmt.n(series.site.at(-1).requestsPerSec)} req/s, ` +
            `node:http floor ${fmt.n(series.floor.at(-1).requestsPerSec)} req/s, nginx ${fmt.n(series.nginx.at(-1).requestsPerSec)} req/s\n`,
        );
      }
      runs[`${target} | site (cached)`] = { ...medianRound(series.site), peakRssBytes: peakRss(site.pid), rssAfterBytes: currentRss(site.pid) };
      runs[`${target} | node:http floor`] = { ...medianRound(series.floor), peakRssBytes: null, rssAfterBytes: null };
      runs[`${target} | nginx gzip_static`] = { ...medianRound(series.nginx), peakRssBytes: null, rssAfterBytes: null };
    }
    // Uncached: the list's anonymous miss path (another page each request) and the signed-in path. A signed-in answer
    // that is the one stored for anonymous visitors goes out with the cache's compressed bytes (cache/send-read.ts), so
    // the signed-in path is also measured on pages no anonymous visitor asked for: all of its own work.
    const uncached = [
      ['list, another page each request', `${site.url}${listPath}`, 'anonymous miss', true, false, 0],
      ['list, another page each request', `${site.url}${listPath}`, 'signed in, never cached', true, true, Math.floor(listTotal / 2)],
      ...targets.map(([target, siteUrl]) => [target, siteUrl, 'signed in, never cached', false, true, 0]),
    ];
    for (const [target, siteUrl, how, unique, signedIn, uniqueFrom] of uncached) {
      // The same load first, unmeasured, on other pages (a quarter of the list further on): a freshly started
      // process compiles the path and sizes its heap in its first seconds, and the cache fills; a site runs for days.
      await wrk(siteUrl, unique, signedIn, uniqueFrom + Math.floor(listTotal / 4), warmupS);
      resetPeakRss(site.pid);
      const result = await wrk(siteUrl, unique, signedIn, uniqueFrom);
      runs[`${target} | site (${how})`] = { ...result, peakRssBytes: peakRss(site.pid), rssAfterBytes: currentRss(site.pid) };
      process.stdout.write(`  ${target}, site (${how}): ${fmt.n(result.requestsPerSec)} req/s\n`);
    }
  } finally {
    await Promise.all([nginx.stop(), floor.stop()]);
  }
  for (const r of Object.values(runs)) delete r.raw;

  for (const [key, r] of Object.entries(runs)) {
    const [target, server] = key.split(' | ');
    const reference = runs[`${target} | nginx gzip_static`]?.requestsPerSec;
    r.ratioToNginx = reference ? r.requestsPerSec / reference : null;
    const floorRps = server === 'site (cached)' ? runs[`${target} | node:http floor`]?.requestsPerSec : null;
    r.ratioToFloor = floorRps ? r.requestsPerSec / floorRps : null;
    rows.push([
      target,
      server,
      fmt.n(r.requestsPerSec),
      fmt.ms(r.p50Ms),
      fmt.ms(r.p99Ms),
      `${r.non2xx}/${r.socketErrors}`,
      fmt.mb(r.peakRssBytes),
      r.ratioToNginx === null ? null : `${(r.ratioToNginx * 100).toFixed(0)} %`,
      r.ratioToFloor === null ? null : `${(r.ratioToFloor * 100).toFixed(0)} %`,
    ]);
  }
  console.log(
    `\nwrk -t1 -c${connections} -d${durationS}s --latency, Accept-Encoding: gzip (list ${fmt.n(list.gz.length)} B gzip, detail ${fmt.n(detail.gz.length)} B gzip, search ${fmt.n(search.gz.length)} B gzip); ` +
      `cached, floor and nginx rows: the median of ${rounds} alternating rounds; peak RSS of the cached rows: over all their rounds; ` +
      `uncached rows: each after ${warmupS} s of the same load on other pages, unmeasured; ` +
      'node:http floor: a bare node:http server sending the same bytes and headers from memory (bench/lib/node-floor.mjs)',
  );
  console.log(table(['read', 'server', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx/socket err', 'peak RSS MB', 'of nginx', 'of floor'], rows));
  for (const note of notes) console.log(`Note: ${note}`);
  const verdicts = httpVerdicts(runs);
  printVerdicts(verdicts);
  return {
    verdicts,
    listBytesGzip: list.gz.length,
    detailBytesGzip: detail.gz.length,
    searchBytesGzip: search.gz.length,
    listCacheControl: list.cacheControl,
    listEtag: Boolean(list.etag),
    runs,
    notes,
  };
}
