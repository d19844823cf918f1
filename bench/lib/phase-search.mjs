// Search at one size (GET /api/v1.0.0/search): uncached (a signed-in reader, whose answers are never stored) and
// cached (anonymous, the same URL again), for a word in every record, a word in one record in ten thousand, and an
// Amharic phrase, each with two facets (a region and a perpetrator) and without.
import { performance } from 'node:perf_hooks';
import { get } from './http.mjs';
import { fmt, median, percentile, table } from './stats.mjs';

const API = '/api/v1.0.0';
const TWO_FACETS = 'region=amhara&victimizer=Bench+perpetrator+B+(fictional)';

export const SEARCH_TARGETS = {
  commonWord: `${API}/search?q=record`,
  commonWordTwoFacets: `${API}/search?q=record&${TWO_FACETS}`,
  rareWord: `${API}/search?q=benchword42`,
  rareWordTwoFacets: `${API}/search?q=benchword42&${TWO_FACETS}`,
  // The records of the rare word all lie in one region, a third of them with perpetrator A: two facets that find some.
  rareWordTwoFacetsFound: `${API}/search?q=benchword42&region=south-west-ethiopia&victimizer=Bench+perpetrator+A+(fictional)`,
  amharicPhraseTwoFacets: `${API}/search?q=${encodeURIComponent('"ሙከራ መዝገብ"')}&${TWO_FACETS}`,
  misspeltName: `${API}/search?q=${encodeURIComponent('Bench persn 4242')}`,
  noWordsTwoFacets: `${API}/search?${TWO_FACETS}`,
};

async function series(url, headers, runs, budgetMs = 6000) {
  const first = await get(url, headers); // warm-up: plans and pages in memory, as on a running site
  const ms = [];
  const started = performance.now();
  for (let i = 0; i < runs && (i < 5 || performance.now() - started < budgetMs); i++) {
    const res = await get(url, headers);
    if (res.status !== 200) throw new Error(`search bench: ${url} answered ${res.status}`);
    ms.push(res.ms);
  }
  let total = null;
  try {
    total = JSON.parse(first.body.toString('utf8')).total;
  } catch {
    // A compressed or non-JSON body: the total is only informative.
  }
  return { medianMs: median(ms), p95Ms: percentile(ms, 95), runs: ms.length, status: first.status, total };
}

export async function runSearch({ site, runs, authorization }) {
  const uncached = {};
  const cached = {};
  for (const [name, target] of Object.entries(SEARCH_TARGETS)) {
    uncached[name] = await series(`${site.url}${target}`, { authorization, 'accept-encoding': 'identity' }, runs);
    cached[name] = await series(`${site.url}${target}`, {}, runs);
  }
  console.log(`\nSearch, ms of up to ${runs} requests (uncached: signed in, never stored; cached: anonymous, a hit)`);
  console.log(
    table(
      ['search', 'found', 'uncached median', 'uncached p95', 'cached median', 'cached p95'],
      Object.keys(SEARCH_TARGETS).map((name) => [
        name,
        fmt.n(uncached[name].total),
        fmt.ms(uncached[name].medianMs),
        fmt.ms(uncached[name].p95Ms),
        fmt.ms(cached[name].medianMs),
        fmt.ms(cached[name].p95Ms),
      ]),
    ),
  );
  return { targets: SEARCH_TARGETS, uncached, cached };
}
