// Search at one size (GET /api/v1.0.0/search): uncached (a signed-in reader, whose answers are never stored) and
// cached (anonymous, the same URL again), for a word in every record, a word in one record in ten thousand, and an
// Amharic phrase, each with two facets (a region and a perpetrator) and without. Then unique searches under load: wrk
// at --connections, every request a search nobody asked before (anonymous, so each one misses the response cache and
// is computed), for the common word with two facets and for a mix of searches, with a cached list page read beside
// them; and the targets of issue 43 (targets.mjs), met or not.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { get } from './http.mjs';
import { fmt, median, percentile, table } from './stats.mjs';
import { printVerdicts, searchVerdicts } from './targets.mjs';
import { runWrk } from './wrk.mjs';

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

const REGIONS = ['afar', 'amhara', 'benishangul-gumuz', 'oromia', 'somali', 'tigray'];
const PERPETRATORS = ['A', 'B', 'C', 'D', 'E', 'F'].map((l) => encodeURIComponent(`Bench perpetrator ${l} (fictional)`));

/**
 * A wrk request script: request n asks for `kinds[n % kinds.length]` (a Lua expression of n giving the path up to its
 * last parameter) with `to=` a day of its own after the data (2090-01-01 plus n days), so that no two requests are
 * the same search and every one is computed; the date filter leaves every record in. `first`: where n starts, apart
 * for each run, since a run that started where the one before did asked again for the searches the cache had kept
 * (the mix's common-word searches were the previous run's, answered from the cache).
 */
function uniqueSearches(kinds, first) {
  return `local n = ${first}
local regions = { ${REGIONS.map((r) => `"${r}"`).join(', ')} }
local perpetrators = { ${PERPETRATORS.map((p) => `"${p}"`).join(', ')} }
local kinds = {
${kinds.map((k) => `  function(n) return ${k} end`).join(',\n')}
}
request = function()
  n = n + 1
  local path = kinds[(n % #kinds) + 1](n)
  return wrk.format("GET", path .. "&to=" .. os.date("!%Y-%m-%d", 3786912000 + n * 86400))
end
`;
}

const TWO_FACETS_LUA = `"&region=" .. regions[(n % #regions) + 1] .. "&victimizer=" .. perpetrators[(math.floor(n / 7) % #perpetrators) + 1]`;
/** The mix: a common word, an Amharic phrase and a rare word (one of ten thousand), the first two with two facets. */
const LOAD_KINDS = {
  commonWordTwoFacets: [`"${API}/search?q=record" .. ${TWO_FACETS_LUA}`],
  mix: [
    `"${API}/search?q=record" .. ${TWO_FACETS_LUA}`,
    `"${API}/search?q=${encodeURIComponent('"ሙከራ መዝገብ"')}" .. ${TWO_FACETS_LUA}`,
    `"${API}/search?q=benchword" .. (n % 10000)`,
  ],
};

/** wrk with unique searches, and at the same time a few connections reading a cached list page. */
async function underLoad({ site, work, durationS, connections, kinds, name, first }) {
  const cachedList = `${site.url}${API}/victims?limit=12`;
  await get(cachedList);
  const [searches, cached] = await Promise.all([
    runWrk({ url: site.url, connections, durationS, lua: uniqueSearches(kinds, first), scriptFile: path.join(work, `search-${name}.lua`) }),
    runWrk({ url: cachedList, connections: 4, durationS }),
  ]);
  // Searches answered (2xx) per second: a refusal (503) is fast, so requests/s alone grows as more are refused.
  const answeredPerSec = searches.requests ? (searches.requestsPerSec * (searches.requests - searches.non2xx)) / searches.requests : 0;
  return { ...strip(searches), answeredPerSec, cachedBeside: strip(cached) };
}

const strip = ({ raw: _raw, ...figures }) => figures;

export async function runSearch({ site, runs, authorization, work, durationS = 10, connections = 32, size, load = true }) {
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
  const result = { targets: SEARCH_TARGETS, uncached, cached, load: {} };
  if (load) {
    // A million requests apart (the dates stay before the year 9999 for two runs).
    for (const [i, [name, kinds]] of Object.entries(LOAD_KINDS).entries()) {
      result.load[name] = await underLoad({ site, work, durationS, connections, kinds, name, first: i * 1_000_000 });
    }
    console.log(`\nUnique searches under load: wrk -t1 -c${connections} -d${durationS}s, anonymous, every request another search; a cached list page read on 4 more connections beside them`);
    console.log(
      table(
        ['searches', 'req/s', 'answered/s', 'p50 ms', 'p99 ms', '503 or errors', 'cached list req/s', 'cached list p99 ms'],
        Object.entries(result.load).map(([name, run]) => [
          name,
          fmt.n(run.requestsPerSec),
          fmt.n(run.answeredPerSec),
          fmt.ms(run.p50Ms),
          fmt.ms(run.p99Ms),
          fmt.n(run.non2xx + run.socketErrors),
          fmt.n(run.cachedBeside.requestsPerSec),
          fmt.ms(run.cachedBeside.p99Ms),
        ]),
      ),
    );
  }
  result.verdicts = searchVerdicts(result, size);
  if (result.verdicts.length) printVerdicts(result.verdicts);
  return result;
}
