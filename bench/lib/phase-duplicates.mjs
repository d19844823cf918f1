// Duplicate people at one size (issue 39): the form's check, GET /{category}/duplicates, for a few hundred made-up
// questions (the stored spelling, another spelling, the name in the other script, words swapped, with the woreda, date
// and incident the form sends, and names nobody has), signed in as the form asks it; then the admins' "Possible
// duplicates", GET /duplicates, page 1 and the pages after it by cursor. The people are the part's own
// (bench/lib/people-data.ts), scanned for pairs for a bounded time before the site starts.
import { get } from './http.mjs';
import { fmt, median, percentile, table } from './stats.mjs';
import { printVerdicts } from './targets.mjs';

const API = '/api/v1.0.0';
/** Issue 39's target: the check's p95 at a million records. */
export const DUPLICATE_TARGET = { atSize: 1_000_000, p95Ms: 50 };

const cap = (w) => w.charAt(0).toUpperCase() + w.slice(1);
/** Another spelling of a Latin name: a vowel changed, one dropped, a letter doubled or q for k, taking turns. */
function respell(name, i) {
  const words = name.split(' ');
  const w = words[i % words.length];
  const changed = [
    w.replace(/[aeiou](?=[^aeiou]*$)/, (v) => (v === 'e' ? 'a' : 'e')),
    w.length > 4 ? w.replace(/(?<=.)[aeiou]/, '') : `${w}u`,
    w.replace(/([bdfgklmnrst])/, '$1$1'),
    w.replace(/k/i, (k) => (k === 'k' ? 'q' : 'Q')),
  ][i % 4];
  words[i % words.length] = changed;
  return words.join(' ');
}

const MISSES = ['xo', 'vu', 'pli', 'zor', 'gru', 'phe', 'klo', 'vri', 'oxa', 'jum'];
/** A made-up name of syllables no seeded name has. */
const missName = (i) => [0, 1].map((k) => cap(MISSES[(i * 7 + k * 3) % 10] + MISSES[(i * 3 + k * 5 + 1) % 10] + MISSES[(i + k) % 10])).join(' ');

/** The questions: one per sampled person, of five kinds in turn. */
export function duplicateQuestions(people) {
  return people.map((p, i) => {
    const latin = p.person_name.split(' ').map(cap).join(' ');
    const kind = ['stored', 'otherSpelling', 'withReasons', 'wordsSwapped', 'miss'][i % 5];
    const params = { name: p.full_name };
    if (kind === 'otherSpelling') params.name = /[\u1200-\u139f]/.test(p.full_name) ? latin : respell(p.full_name, i);
    if (kind === 'withReasons') {
      params.name = respell(latin, i);
      params.woreda = p.woreda;
      const day = new Date(`${p.happened_on}T00:00:00Z`);
      day.setUTCDate(day.getUTCDate() + ((i % 5) - 2));
      params.happenedOn = day.toISOString().slice(0, 10);
      if (p.incident_id) params.incidentId = p.incident_id;
    }
    if (kind === 'wordsSwapped') params.name = p.full_name.split(' ').reverse().join(' ');
    if (kind === 'miss') params.name = missName(i);
    return { kind, category: p.category, query: new URLSearchParams(params).toString() };
  });
}

const summary = (ms) => ({ n: ms.length, medianMs: median(ms), p95Ms: percentile(ms, 95), p99Ms: percentile(ms, 99), maxMs: Math.max(...ms) });

async function timeChecks({ site, authorization, questions }) {
  const headers = { authorization, 'accept-encoding': 'identity' };
  for (const q of questions.slice(0, 20)) await get(`${site.url}${API}/${q.category}/duplicates?${q.query}`, headers); // warm-up
  const byKind = {};
  const all = [];
  let found = 0;
  for (const q of questions) {
    const res = await get(`${site.url}${API}/${q.category}/duplicates?${q.query}`, headers);
    if (res.status !== 200) throw new Error(`duplicates bench: ${q.category}/duplicates?${q.query} answered ${res.status}: ${res.body}`);
    const candidates = JSON.parse(res.body.toString('utf8'));
    if (candidates.length) found++;
    (byKind[q.kind] ??= { ms: [], found: 0 }).ms.push(res.ms);
    if (candidates.length) byKind[q.kind].found++;
    all.push(res.ms);
  }
  return {
    all: { ...summary(all), found },
    kinds: Object.fromEntries(Object.entries(byKind).map(([kind, { ms, found: f }]) => [kind, { ...summary(ms), found: f }])),
  };
}

/** Page 1 of the pairs `runs` times, then up to `pages` pages after it by X-Next-Cursor. */
async function timePairs({ site, authorization, runs, pages }) {
  const headers = { authorization, 'accept-encoding': 'identity' };
  const url = (cursor) => `${site.url}${API}/duplicates?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  await get(url(null), headers);
  const first = [];
  for (let i = 0; i < runs; i++) first.push((await get(url(null), headers)).ms);
  const later = [];
  let cursor = (await get(url(null), headers)).headers['x-next-cursor'];
  let shown = 50;
  let lastScore = null;
  while (cursor && later.length < pages) {
    const res = await get(url(cursor), headers);
    if (res.status !== 200) throw new Error(`duplicates bench: pairs page answered ${res.status}`);
    const body = JSON.parse(res.body.toString('utf8'));
    shown += body.length;
    lastScore = body.at(-1)?.score ?? lastScore;
    later.push(res.ms);
    cursor = res.headers['x-next-cursor'];
  }
  return { page1: summary(first), later: later.length ? summary(later) : null, pagesRead: later.length + 1, pairsShown: shown, lowestScoreShown: lastScore };
}

export async function runDuplicates({ site, authorization, people, scan, size }) {
  const questions = duplicateQuestions(people);
  const checks = await timeChecks({ site, authorization, questions });
  const pairs = await timePairs({ site, authorization, runs: 20, pages: 20 });
  console.log(`\nDuplicate check, GET /{category}/duplicates, signed in, ${fmt.n(checks.all.n)} questions, ms`);
  const row = (name, s) => [name, fmt.n(s.n), fmt.n(s.found), fmt.ms(s.medianMs), fmt.ms(s.p95Ms), fmt.ms(s.p99Ms), fmt.ms(s.maxMs)];
  console.log(table(['questions', 'asked', 'found some', 'p50', 'p95', 'p99', 'max'], [row('all', checks.all), ...Object.entries(checks.kinds).map(([k, s]) => row(k, s))]));
  console.log(
    `\nPossible duplicates, GET /duplicates?limit=50: page 1 p50 ${fmt.ms(pairs.page1.medianMs)} ms, p95 ${fmt.ms(pairs.page1.p95Ms)} ms (${pairs.page1.n} runs); ` +
      (pairs.later ? `${pairs.later.n} pages after it by cursor p50 ${fmt.ms(pairs.later.medianMs)} ms, p95 ${fmt.ms(pairs.later.p95Ms)} ms` : 'no page after it') +
      `; ${fmt.n(pairs.pairsShown)} pairs shown, down to score ${pairs.lowestScoreShown ?? '-'}`,
  );
  if (!scan.queued) console.log(`Pair scan: nothing queued (scanned in an earlier run); ${fmt.n(scan.pairs)} pairs stored`);
  else console.log(
    `Pair scan: ${fmt.n(scan.scanned)} of ${fmt.n(scan.queued)} queued people checked in ${scan.seconds.toFixed(1)} s (${fmt.n(scan.perSecond)}/s, ` +
      `the whole queue in ~${fmt.n(scan.queued / scan.perSecond / 60, 1)} min); ${fmt.n(scan.pairs)} pairs stored` +
      (scan.cleared ? `; ${fmt.n(scan.cleared)} left unscanned (taken off the queue for this run)` : ''),
  );
  const verdicts =
    size >= DUPLICATE_TARGET.atSize
      ? [{ target: `duplicate check <= ${DUPLICATE_TARGET.p95Ms} ms p95 at 1M`, figure: `p95 ${checks.all.p95Ms.toFixed(1)} ms at ${fmt.n(size)} people`, met: checks.all.p95Ms <= DUPLICATE_TARGET.p95Ms }]
      : [];
  if (verdicts.length) printVerdicts(verdicts);
  else console.log(`(target: duplicate check <= ${DUPLICATE_TARGET.p95Ms} ms p95, judged at 1M; here p95 ${checks.all.p95Ms.toFixed(1)} ms at ${fmt.n(size)} people)`);
  return { checks, pairs, scan, verdicts };
}

/**
 * The part at every size: the people grown to the size (and 500 incidents), their pairs scanned for up to `scanS`
 * seconds, then a site of its own measured.
 */
export async function runDuplicatesPart({ sizes, dataDir, databaseUrl, logFile, scanS }) {
  const { dbTask } = await import('./data.mjs');
  const { signedInReader } = await import('./reader.mjs');
  const { startSite } = await import('./site.mjs');
  const results = {};
  for (const size of sizes) {
    console.log(`== duplicates: ${size.toLocaleString('en')} people ==`);
    const seeded = await dbTask({ action: 'seed-people', size, dataDir, databaseUrl });
    console.log(`Seeded ${fmt.n(seeded.inserted)} people in ${seeded.seconds.toFixed(1)} s (${fmt.n(seeded.people)} in all, ${fmt.n(seeded.queued)} queued for the pair scan)`);
    const scan = await dbTask({ action: 'scan-people', size, dataDir, databaseUrl, budgetS: scanS, clear: true });
    const { people } = await dbTask({ action: 'sample-people', size, dataDir, databaseUrl, count: 300 });
    const site = await startSite({ dataDir, databaseUrl, logFile });
    try {
      const authorization = await signedInReader({ site, dataDir, databaseUrl });
      results[size] = { seeded, ...(await runDuplicates({ site, authorization, people, scan, size })) };
    } finally {
      await site.stop();
    }
  }
  return results;
}
