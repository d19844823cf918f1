// Imports (issue 57 item 6): a CSV of `size` sample victims checked (target <= 60 s at 100k rows) and written by the
// commit job (target >= 2,000 rows/s), the site's memory meanwhile (the file is streamed, never held), and anonymous
// list reads during the write against the same reads before it (target: at least 80 %).
import { createWriteStream, openAsBlob } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { currentRss, peakRss, resetPeakRss } from './proc.mjs';
import { signedInReader } from './reader.mjs';
import { fmt, table } from './stats.mjs';

export const IMPORT_TARGETS = { checkSecondsAt100k: 60, writeRowsPerS: 2000, readsKept: 0.8 };

/** Sample victims (made-up names, labelled), written a row at a time. */
async function sampleCsv(file, size) {
  const out = createWriteStream(file);
  out.write('title,fullName,region,woreda,happenedOn,description\n');
  const syllables = ['ka', 'le', 'mi', 'no', 'ta', 'be', 'ge', 'ha', 'sa', 'wo', 'ye', 'zu'];
  const word = (n) => Array.from({ length: 4 }, (_, i) => syllables[Math.floor(n / 12 ** i) % 12]).join('');
  for (let i = 0; i < size; i++) {
    const line = `Sample import victim ${i},Sample ${word(i)} ${word(i * 7 + 3)},amhara,Sample woreda ${i % 300},2021-0${1 + (i % 9)}-1${i % 10},Bench data - not real\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** Anonymous list pages, each another offset (past the response cache), for `seconds`: pages answered per second. */
async function readRate(site, seconds) {
  const until = performance.now() + seconds * 1000;
  let answered = 0;
  let offset = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const res = await fetch(`${site.url}/api/v1.0.0/massacres?limit=20&offset=${offset++ % 5000}`);
      await res.arrayBuffer();
      if (res.ok) answered++;
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return answered / seconds;
}

function sampler(pid) {
  resetPeakRss(pid);
  const samples = [];
  const timer = setInterval(() => samples.push(currentRss(pid)), 200);
  return () => {
    clearInterval(timer);
    return { peak: peakRss(pid), mean: samples.reduce((a, b) => a + (b ?? 0), 0) / Math.max(1, samples.length) };
  };
}

export async function runImports({ site, size, work, dataDir, databaseUrl }) {
  const auth = await signedInReader({ site, dataDir, databaseUrl });
  const file = path.join(work, `import-${size}.csv`);
  await sampleCsv(file, size);
  const rssIdle = currentRss(site.pid);
  const baseline = await readRate(site, 5);

  const checkMemory = sampler(site.pid);
  const form = new FormData();
  form.set('category', 'victims');
  form.set('file', await openAsBlob(file, { type: 'text/csv' }), 'bench-import.csv');
  let started = performance.now();
  const res = await fetch(`${site.url}/api/v1.0.0/imports`, { method: 'POST', headers: { authorization: auth }, body: form });
  const checked = await res.json();
  if (res.status !== 200) throw new Error(`import check: ${res.status} ${JSON.stringify(checked).slice(0, 300)}`);
  const checkSeconds = (performance.now() - started) / 1000;
  const checkRss = checkMemory();

  const writeMemory = sampler(site.pid);
  started = performance.now();
  const commit = await fetch(`${site.url}/api/v1.0.0/imports/${checked.id}/commit`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify({ duplicates: 'create' }) });
  if (commit.status !== 202) throw new Error(`import commit: ${commit.status} ${await commit.text()}`);
  // Reads measured while the job writes, then the job waited for.
  const during = await readRate(site, 5);
  let progress;
  for (;;) {
    progress = await (await fetch(`${site.url}/api/v1.0.0/imports/${checked.id}`, { headers: { authorization: auth } })).json();
    if (!['queued', 'running'].includes(progress.status)) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const writeSeconds = (performance.now() - started) / 1000;
  const writeRss = writeMemory();
  const rowsPerS = progress.created / writeSeconds;
  const verdicts = [
    size >= 100_000 ? { name: `checked in <= ${IMPORT_TARGETS.checkSecondsAt100k} s (100k rows)`, figure: `${checkSeconds.toFixed(1)} s`, met: checkSeconds <= IMPORT_TARGETS.checkSecondsAt100k * (size / 100_000) } : null,
    { name: `written at >= ${IMPORT_TARGETS.writeRowsPerS} rows/s`, figure: `${Math.round(rowsPerS)} rows/s`, met: rowsPerS >= IMPORT_TARGETS.writeRowsPerS },
    { name: `reads during the write >= ${IMPORT_TARGETS.readsKept * 100} % of before`, figure: `${Math.round((during / baseline) * 100)} %`, met: during >= baseline * IMPORT_TARGETS.readsKept },
  ].filter(Boolean);
  console.log(`\nImport of ${size.toLocaleString('en')} sample victims (CSV, ${checked.valid.toLocaleString('en')} valid, ${checked.duplicateCount} likely duplicates)`);
  console.log(
    table(
      ['step', 'seconds', 'rows/s', 'RSS mean', 'RSS peak'],
      [
        ['check', checkSeconds.toFixed(1), fmt.n(Math.round(checked.rows / checkSeconds)), fmt.mb(checkRss.mean), fmt.mb(checkRss.peak)],
        ['write (job)', writeSeconds.toFixed(1), fmt.n(Math.round(rowsPerS)), fmt.mb(writeRss.mean), fmt.mb(writeRss.peak)],
      ],
    ),
  );
  console.log(`RSS idle ${fmt.mb(rssIdle)}; list reads ${baseline.toFixed(0)}/s before, ${during.toFixed(0)}/s during the write; job ${progress.status}, created ${progress.created}, failed ${progress.failed}`);
  for (const v of verdicts) console.log(`  ${v.met ? 'met    ' : 'NOT met'}  ${v.name}: ${v.figure}`);
  return { size, checkSeconds, writeSeconds, rowsPerS, checkRss, writeRss, rssIdle, readsBefore: baseline, readsDuring: during, progress, verdicts };
}
