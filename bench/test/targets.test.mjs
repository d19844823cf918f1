import { describe, expect, it } from 'vitest';
import { footprintVerdicts, httpVerdicts, SEARCH_LOAD_TARGETS, searchVerdicts, TARGETS, webVerdicts } from '../lib/targets.mjs';

const MB = 1024 * 1024;

/** The http part's runs as phase-http.mjs keys them, with the figures the verdicts read. */
function httpRuns({ cachedRatio = 1, missRps = 3000, missP99 = 20, searchRps = 60 } = {}) {
  return {
    'list page 1 | site (cached)': { requestsPerSec: 80_000 * cachedRatio, p99Ms: 1, ratioToNginx: cachedRatio },
    'list page 1 | node:http floor': { requestsPerSec: 70_000, p99Ms: 1, ratioToNginx: 0.875 },
    'list page 1 | nginx gzip_static': { requestsPerSec: 80_000, p99Ms: 1, ratioToNginx: 1 },
    'list, another page each request | site (anonymous miss)': { requestsPerSec: missRps, p99Ms: missP99, ratioToNginx: null },
    'detail | site (signed in, never cached)': { requestsPerSec: 30_000, p99Ms: 2, ratioToNginx: 0.4 },
    'search, common word, two facets | site (signed in, never cached)': { requestsPerSec: searchRps, p99Ms: 700, ratioToNginx: 0 },
  };
}

const verdictOf = (verdicts, start) => verdicts.find((v) => v.target.startsWith(start));

describe('bench targets', () => {
  it('judges cached reads against nginx, and uncached list and detail reads against throughput and p99', () => {
    const met = httpVerdicts(httpRuns());
    // The site's cached row, the uncached list and detail: not the floor, not nginx, not search (its own target).
    expect(met.map((v) => v.target.split(':')[0])).toEqual([
      'list page 1, cached',
      'list, another page each request, anonymous miss',
      'detail, signed in, never cached',
    ]);
    expect(met.every((v) => v.met)).toBe(true);
    expect(verdictOf(met, 'list, another')?.figure).toBe('3,000 req/s, p99 20.0 ms');
  });

  it('fails a cached read under 0.8x nginx, and an uncached one short on throughput or over on p99', () => {
    expect(verdictOf(httpVerdicts(httpRuns({ cachedRatio: TARGETS.cachedOfNginx - 0.01 })), 'list page 1, cached')?.met).toBe(false);
    expect(verdictOf(httpVerdicts(httpRuns({ cachedRatio: TARGETS.cachedOfNginx })), 'list page 1, cached')?.met).toBe(true);
    expect(verdictOf(httpVerdicts(httpRuns({ missRps: 1999 })), 'list, another')?.met).toBe(false);
    expect(verdictOf(httpVerdicts(httpRuns({ missP99: 50 })), 'list, another')?.met).toBe(false);
  });

  it('judges memory on the embedded default only, at the higher of its two loaded peaks', () => {
    const result = { embedded: true, startSeconds: 0.9, idlePss: 110 * MB, loadPeakPss: 140 * MB, soak: { peakPss: 210 * MB } };
    expect(footprintVerdicts(result).map((v) => v.met)).toEqual([true, true, true]);
    const soakOver = footprintVerdicts({ ...result, soak: { peakPss: 251 * MB } });
    expect(verdictOf(soakOver, 'memory under')).toMatchObject({ met: false, figure: '251.0 MB at the peak' });
    expect(verdictOf(footprintVerdicts({ ...result, idlePss: 151 * MB }), 'memory idle')?.met).toBe(false);
    expect(verdictOf(footprintVerdicts({ ...result, startSeconds: 3.2 }), 'start')?.met).toBe(false);
    // With --pg only the site's process is measured, so only the start is judged.
    expect(footprintVerdicts({ ...result, embedded: false }).map((v) => v.target)).toEqual([expect.stringMatching(/^start/)]);
  });

  it('judges unique searches under load at 100k records, and one uncached search of each kind at 1M', () => {
    const load = (requestsPerSec, p99Ms) => ({ requestsPerSec, p99Ms, p50Ms: 10, non2xx: 0, socketErrors: 0, cachedBeside: {} });
    const series = (p95Ms) => ({ medianMs: p95Ms / 2, p95Ms });
    const result = {
      load: { commonWordTwoFacets: load(600, 80), mix: load(499, 80) },
      uncached: { commonWordTwoFacets: series(40), amharicPhraseTwoFacets: series(51), rareWord: series(5), misspeltName: series(500) },
    };
    const at100k = searchVerdicts(result, SEARCH_LOAD_TARGETS.atSize);
    expect(at100k.map((v) => v.met)).toEqual([true, false]);
    expect(at100k[0].figure).toBe('600 answered/s (600 req/s), p99 80.0 ms, 0 refused or failed');
    expect(searchVerdicts({ ...result, load: { mix: load(900, 101) } }, 100_000)[0].met).toBe(false);
    // Refusals are not throughput: 900 req/s of which half were 503 is 450 searches answered a second.
    const refusing = { ...load(900, 80), non2xx: 4500, answeredPerSec: 450 };
    expect(searchVerdicts({ ...result, load: { mix: refusing } }, 100_000)[0]).toMatchObject({ met: false, figure: '450 answered/s (900 req/s), p99 80.0 ms, 4500 refused or failed' });
    const at1m = searchVerdicts(result, SEARCH_LOAD_TARGETS.oneSearchAtSize);
    expect(at1m.map((v) => [v.target.match(/\((\w+)\)/)[1], v.met])).toEqual([
      ['commonWordTwoFacets', true],
      ['amharicPhraseTwoFacets', false],
      ['rareWord', true],
    ]);
    expect(searchVerdicts(result, 1000)).toEqual([]);
  });
});

describe('the web part\'s targets (issue 43 item 1)', () => {
  const page = (path, cpuMs, scriptMs) => ({ path, cpuMs, scriptMs });
  const scored = (path, performance, tbtMs, accessibility = 100) => ({ path, performance, tbtMs, accessibility });

  it('meets each target only within its bound, and names the figure it judged', () => {
    const verdicts = webVerdicts({
      home: { browser: { br: 24 * 1024 } },
      pageLoad: { home: page('/', 59, 19), list: page('/victims', 61, 21) },
      lighthouse: { home: scored('/', 98, 50), list: scored('/victims', 99, 51), search: scored('/search', 100, 10, 96) },
    });
    const by = (text) => verdicts.filter((v) => v.target.includes(text));
    expect(by('home page JS+CSS')[0]).toMatchObject({ met: true, figure: '24.0 KB' });
    expect(by('home /: main-thread').map((v) => v.met)).toEqual([true]);
    expect(by('list /victims: main-thread').map((v) => v.met)).toEqual([false]);
    expect(by('ScriptDuration').map((v) => v.met)).toEqual([true, false]);
    expect(by('Lighthouse').map((v) => v.met)).toEqual([true, false, false]);
  });

  it("names beside a page's CPU what an empty page cost in the same run, and still judges the page's whole figure", () => {
    const verdicts = webVerdicts({ pageLoad: { list: page('/victims', 70.5, 21) }, emptyPageLoad: { cpuMs: 45.2 } });
    const cpu = verdicts.find((v) => v.target.includes('main-thread'));
    expect(cpu).toMatchObject({ met: false, figure: "70.5 ms (an empty page 45.2 ms, the page's own 25.3 ms)" });
  });

  it('a page Lighthouse could not score, or a home page not weighed, is not met', () => {
    const verdicts = webVerdicts({ lighthouse: { home: { path: '/', error: 'every Lighthouse run failed' } } });
    expect(verdicts.map((v) => v.met)).toEqual([false, false]);
  });
});
