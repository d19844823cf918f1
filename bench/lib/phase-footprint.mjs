// What the site costs the machine it runs on: memory of the site and its database together (idle, then under the
// uncached signed-in load), and how long a start on an existing data folder takes to the first answered request.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startSite } from './site.mjs';
import { fmt, median, table } from './stats.mjs';
import { signedInReader } from './reader.mjs';
import { footprintVerdicts, printVerdicts } from './targets.mjs';
import { runWrk } from './wrk.mjs';

/** Proportional set size (bytes) of one process: shared pages counted once across the processes that share them. */
function pss(pid) {
  try {
    const match = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(/^Pss:\s+(\d+) kB/m);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function childrenOf(parent) {
  const out = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) out.push(Number(name));
    } catch {
      /* exited meanwhile */
    }
  }
  return out;
}

/** The site's process and, with the embedded default, its PostgreSQL server and every backend of it. */
function siteProcesses(site, dataDir) {
  const pids = [site.pid];
  try {
    const postmaster = Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (postmaster) pids.push(postmaster, ...childrenOf(postmaster));
  } catch {
    /* a PostgreSQL server of the operator's own: not the site's to count */
  }
  return pids;
}

const totalPss = (site, dataDir) => siteProcesses(site, dataDir).reduce((sum, pid) => sum + pss(pid), 0);

/** Bytes held by the site's public response cache, read from its /metrics. */
async function cacheBytes(site) {
  const res = await fetch(`${site.url}/metrics`, { headers: { authorization: `Bearer ${site.metricsToken}` } });
  const text = await res.text();
  const match = text.match(/^public_cache_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)$/m);
  return match ? Number(match[1]) : null;
}

/**
 * Runs `load` while sampling memory every 250 ms: the whole (site + database), and the site's process alone, so growth
 * can be told apart. The samples, their peak and what the load printed.
 */
async function underLoad(site, dataDir, seconds, load) {
  const samples = [];
  const siteSamples = [];
  const sampler = setInterval(() => {
    samples.push(totalPss(site, dataDir));
    siteSamples.push(pss(site.pid));
  }, 250);
  try {
    const result = await load();
    return { load: result, samples, siteSamples, peak: Math.max(...samples) };
  } finally {
    clearInterval(sampler);
  }
}

export async function runFootprint({ dataDir, databaseUrl, logFile, durationS, connections, size, soakS = 60, soakWarmS = 30 }) {
  const result = { size, embedded: !databaseUrl };
  // Start on the existing (seeded) folder: from spawning the process to the first answered list request.
  const startTimes = [];
  let site = null;
  for (let i = 0; i < 3; i++) {
    if (site) await site.stop();
    const t0 = performance.now();
    site = await startSite({ dataDir, databaseUrl, logFile });
    const res = await fetch(`${site.url}/api/v1.0.0/victims?limit=12`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`list answered ${res.status} after start`);
    startTimes.push((performance.now() - t0) / 1000);
  }
  result.startSeconds = median(startTimes);
  result.startRuns = startTimes;
  try {
    await new Promise((r) => setTimeout(r, 3000));
    const idle = [];
    for (let i = 0; i < 5; i++) {
      idle.push(totalPss(site, dataDir));
      await new Promise((r) => setTimeout(r, 200));
    }
    result.idlePss = median(idle);
    result.processes = siteProcesses(site, dataDir).length;

    // The signed-in path is never cached: every request is a query, JSON and a response of its own.
    const authorization = await signedInReader({ site, dataDir, databaseUrl });
    const signedIn = await underLoad(site, dataDir, durationS, () =>
      runWrk({ url: `${site.url}/api/v1.0.0/victims?limit=12`, durationS, connections, authorization }),
    );
    result.load = signedIn.load;
    result.loadPeakPss = signedIn.peak;
    // Unique URLs (another page each request, each a new cache entry): first soakWarmS seconds that fill the response
    // cache to CACHE_MAX_MB (a full cache is the state a running site is in), then soakS seconds measured, on pages the
    // warm-up did not ask for. Memory stays flat while the cache stays within its bound.
    const soakUrl = `${site.url}/api/v1.0.0/victims?limit=12`;
    // Inside the list: a page past its end is empty and cheap, so a soak running past it would measure little.
    const wrapAt = Number((await fetch(soakUrl)).headers.get('x-total-count'));
    const warm = await runWrk({ url: soakUrl, durationS: soakWarmS, connections, uniquePaths: true, wrapAt, scriptFile: path.join(dataDir, '..', 'soak.lua') });
    const cacheAfterWarm = await cacheBytes(site);
    const soak = await underLoad(site, dataDir, soakS, () =>
      runWrk({ url: soakUrl, durationS: soakS, connections, uniquePaths: true, uniqueFrom: warm.requests + 1000, wrapAt, scriptFile: path.join(dataDir, '..', 'soak.lua') }),
    );
    const third = Math.max(1, Math.floor(soak.samples.length / 3));
    result.soak = {
      seconds: soakS,
      warmSeconds: soakWarmS,
      warmRequests: warm.requests,
      load: soak.load,
      peakPss: soak.peak,
      firstThirdPss: median(soak.samples.slice(0, third)),
      lastThirdPss: median(soak.samples.slice(-third)),
      siteFirstThirdPss: median(soak.siteSamples.slice(0, third)),
      siteLastThirdPss: median(soak.siteSamples.slice(-third)),
      cacheBytesAfterWarm: cacheAfterWarm,
      cacheBytesAfter: await cacheBytes(site),
    };
  } finally {
    await site.stop();
  }
  const where = result.embedded ? 'site + its PostgreSQL server, PSS' : 'site process only (PostgreSQL is the operator\'s), PSS';
  console.log(`\nFootprint at ${fmt.n(size)} records (${where})`);
  console.log(
    table(
      ['measure', 'value'],
      [
        ['start on the existing folder to first list answer (median of 3)', `${result.startSeconds.toFixed(2)} s (${startTimes.map((s) => s.toFixed(2)).join(', ')})`],
        [`memory idle (${result.processes} processes)`, `${fmt.mb(result.idlePss)} MB`],
        [`memory peak under ${durationS} s of signed-in list reads, ${connections} connections`, `${fmt.mb(result.loadPeakPss)} MB`],
        ['that load', `${fmt.n(Math.round(result.load.requestsPerSec))} req/s, p99 ${fmt.ms(result.load.p99Ms)} ms, errors ${result.load.non2xx + result.load.socketErrors}`],
        [
          `memory under ${soakS} s of unique URLs (anonymous, another page each request, after ${soakWarmS} s of them): first third, last third, peak`,
          `${fmt.mb(result.soak.firstThirdPss)}, ${fmt.mb(result.soak.lastThirdPss)}, ${fmt.mb(result.soak.peakPss)} MB`,
        ],
        [
          'of which the site\'s process: first third, last third',
          `${fmt.mb(result.soak.siteFirstThirdPss)}, ${fmt.mb(result.soak.siteLastThirdPss)} MB`,
        ],
        [
          'response cache (CACHE_MAX_MB bounds it): after the warm-up, after the soak',
          `${fmt.mb(result.soak.cacheBytesAfterWarm)}, ${fmt.mb(result.soak.cacheBytesAfter)} MB`,
        ],
        ['that load', `${fmt.n(Math.round(result.soak.load.requestsPerSec))} req/s, p99 ${fmt.ms(result.soak.load.p99Ms)} ms, errors ${result.soak.load.non2xx + result.soak.load.socketErrors}`],
      ],
    ),
  );
  result.verdicts = footprintVerdicts(result);
  printVerdicts(result.verdicts);
  return result;
}
