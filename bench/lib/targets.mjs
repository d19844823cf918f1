// The read and footprint targets of the embedded-server work (issue 20), in one place, and the verdicts the http and
// footprint parts print under their tables: each verdict names the figure it was judged on, so a "met" can be checked
// against the table above it.

export const TARGETS = {
  /** A cached read: at least this share of nginx's requests/s sending the same bytes. */
  cachedOfNginx: 0.8,
  /** A read the cache does not answer (anonymous miss, signed-in): at least this many requests/s at 32 connections... */
  uncachedRequestsPerSec: 2000,
  /** ...with a 99th percentile under this. */
  uncachedP99Ms: 50,
  /** The embedded default, site and its PostgreSQL server together (PSS), idle. */
  idleMb: 150,
  /** The same under the uncached loads (signed-in reads, unique URLs). */
  underLoadMb: 250,
  /** From spawning the site on an existing data folder to its first answered request. */
  startSeconds: 3,
};

const MB = 1024 * 1024;

/**
 * Verdicts on the http part's runs (keyed `<read> | <server>`): every cached read against nginx, and every uncached
 * list and detail read against the throughput and p99 targets. Search has its own target (phase-search.mjs).
 */
export function httpVerdicts(runs) {
  const verdicts = [];
  for (const [key, run] of Object.entries(runs)) {
    const [read, server] = key.split(' | ');
    if (server === 'site (cached)' && run.ratioToNginx != null) {
      verdicts.push({
        target: `${read}, cached: >= ${TARGETS.cachedOfNginx}x nginx`,
        figure: `${(run.ratioToNginx * 100).toFixed(0)} % of nginx`,
        met: run.ratioToNginx >= TARGETS.cachedOfNginx,
      });
    } else if (server.startsWith('site (') && !read.startsWith('search')) {
      verdicts.push({
        target: `${read}, ${server.slice('site ('.length, -1)}: >= ${TARGETS.uncachedRequestsPerSec.toLocaleString('en')} req/s, p99 < ${TARGETS.uncachedP99Ms} ms`,
        figure: `${Math.round(run.requestsPerSec).toLocaleString('en')} req/s, p99 ${run.p99Ms.toFixed(1)} ms`,
        met: run.requestsPerSec >= TARGETS.uncachedRequestsPerSec && run.p99Ms < TARGETS.uncachedP99Ms,
      });
    }
  }
  return verdicts;
}

/**
 * Verdicts on the footprint part's result. The memory targets count the site and its own PostgreSQL server, so they
 * are judged on the embedded default only; with --pg only the start is.
 */
export function footprintVerdicts(result) {
  const verdicts = [
    {
      target: `start on an existing data folder: <= ${TARGETS.startSeconds} s`,
      figure: `${result.startSeconds.toFixed(2)} s`,
      met: result.startSeconds <= TARGETS.startSeconds,
    },
  ];
  if (!result.embedded) return verdicts;
  const underLoad = Math.max(result.loadPeakPss, result.soak.peakPss);
  verdicts.push(
    { target: `memory idle, site and database: <= ${TARGETS.idleMb} MB`, figure: `${(result.idlePss / MB).toFixed(1)} MB`, met: result.idlePss <= TARGETS.idleMb * MB },
    {
      target: `memory under uncached load, site and database: <= ${TARGETS.underLoadMb} MB`,
      figure: `${(underLoad / MB).toFixed(1)} MB at the peak`,
      met: underLoad <= TARGETS.underLoadMb * MB,
    },
  );
  return verdicts;
}

export function printVerdicts(verdicts) {
  console.log('Targets:');
  for (const { target, figure, met } of verdicts) console.log(`  ${met ? 'met    ' : 'NOT met'}  ${target}: ${figure}`);
}

/** Issue 43's search targets: unique searches under load at 100k records, and one uncached search at 1M. */
export const SEARCH_LOAD_TARGETS = {
  atSize: 100_000,
  requestsPerSec: 500,
  p99Ms: 100,
  oneSearchAtSize: 1_000_000,
  oneSearchP95Ms: 50,
  oneSearchKinds: ['commonWordTwoFacets', 'amharicPhraseTwoFacets', 'rareWord'],
};

/**
 * Verdicts on the search part at one size (phase-search.mjs): at 100k records, every unique-search load run (the common
 * word with two facets, and the mix) against throughput and p99; at 1M, the uncached series of a common word with two
 * facets, an Amharic phrase with two facets and a rare word against their p95. Other sizes: none.
 */
export function searchVerdicts(result, size) {
  const t = SEARCH_LOAD_TARGETS;
  const verdicts = [];
  if (size === t.atSize) {
    for (const [name, run] of Object.entries(result.load ?? {})) {
      // Judged on the searches answered: refusals (503) are quick and would count as throughput.
      const answered = run.answeredPerSec ?? run.requestsPerSec;
      verdicts.push({
        target: `unique searches (${name}) at ${size.toLocaleString('en')} records: >= ${t.requestsPerSec} answered/s, p99 <= ${t.p99Ms} ms`,
        figure: `${Math.round(answered).toLocaleString('en')} answered/s (${Math.round(run.requestsPerSec).toLocaleString('en')} req/s), p99 ${run.p99Ms?.toFixed(1)} ms, ${run.non2xx + run.socketErrors} refused or failed`,
        met: answered >= t.requestsPerSec && run.p99Ms !== null && run.p99Ms <= t.p99Ms && run.socketErrors === 0,
      });
    }
  }
  if (size === t.oneSearchAtSize) {
    for (const kind of t.oneSearchKinds) {
      const series = result.uncached?.[kind];
      if (!series) continue;
      verdicts.push({
        target: `one uncached search (${kind}) at ${size.toLocaleString('en')} records: p95 <= ${t.oneSearchP95Ms} ms`,
        figure: `p95 ${series.p95Ms.toFixed(1)} ms`,
        met: series.p95Ms <= t.oneSearchP95Ms,
      });
    }
  }
  return verdicts;
}

/** Issue 43's reading-page targets (item 1), for the web part: what a page load costs a phone. */
export const WEB_TARGETS = {
  /** The page renderer's main-thread CPU per load at 412x823 (bench/lib/page-load.mjs), every measured page. */
  pageLoadCpuMs: 60,
  /** Lighthouse mobile performance, every measured page... */
  lighthousePerformance: 98,
  /** ...with its Total Blocking Time at most this... */
  lighthouseTbtMs: 50,
  /** ...and its accessibility score kept at this. */
  lighthouseAccessibility: 100,
  /** Chrome's ScriptDuration per load, unthrottled, at 412x823. */
  scriptMs: 20,
  /** The JS+CSS the home page loads, brotli. */
  homeBrotliKb: 25,
};

/** Verdicts on the web part's result (phase-web.mjs): the home page's weight, then each page's load and Lighthouse. */
export function webVerdicts(result) {
  const t = WEB_TARGETS;
  const verdicts = [];
  const homeKb = (result.home?.browser?.br ?? Infinity) / 1024;
  verdicts.push({ target: `home page JS+CSS: <= ${t.homeBrotliKb} KB brotli`, figure: `${homeKb.toFixed(1)} KB`, met: homeKb <= t.homeBrotliKb });
  for (const [name, run] of Object.entries(result.pageLoad ?? {})) {
    // The figure names what an empty page cost in the same run: the part of the total no page can shed.
    const empty = result.emptyPageLoad?.cpuMs;
    const beside = typeof empty === 'number' ? ` (an empty page ${empty.toFixed(1)} ms, the page's own ${(run.cpuMs - empty).toFixed(1)} ms)` : '';
    verdicts.push({ target: `${name} ${run.path}: main-thread CPU per load <= ${t.pageLoadCpuMs} ms`, figure: `${run.cpuMs.toFixed(1)} ms${beside}`, met: run.cpuMs <= t.pageLoadCpuMs });
    if (typeof run.scriptMs === 'number') {
      verdicts.push({ target: `${name} ${run.path}: script run (ScriptDuration) <= ${t.scriptMs} ms`, figure: `${run.scriptMs.toFixed(1)} ms`, met: run.scriptMs <= t.scriptMs });
    }
  }
  for (const [name, run] of Object.entries(result.lighthouse ?? {})) {
    const scored = typeof run.performance === 'number';
    verdicts.push({
      target: `${name} ${run.path}: Lighthouse mobile >= ${t.lighthousePerformance}, TBT <= ${t.lighthouseTbtMs} ms, accessibility ${t.lighthouseAccessibility}`,
      figure: scored ? `${run.performance}, TBT ${Math.round(run.tbtMs)} ms, accessibility ${run.accessibility}` : (run.error ?? 'not scored'),
      met: scored && run.performance >= t.lighthousePerformance && run.tbtMs <= t.lighthouseTbtMs && run.accessibility >= t.lighthouseAccessibility,
    });
  }
  return verdicts;
}
