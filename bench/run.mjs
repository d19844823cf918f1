#!/usr/bin/env node
// The benchmark suite: `npm run bench [-- options]`. It prints figures and writes them to
// bench/results/<timestamp>.json; it asserts nothing about timings. See bench/README.md.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from './lib/args.mjs';
import { compareFiles } from './lib/compare.mjs';
import { runHttp } from './lib/phase-http.mjs';
import { runQueries } from './lib/phase-queries.mjs';
import { runSearch } from './lib/phase-search.mjs';
import { runWeb } from './lib/phase-web.mjs';
import { runFootprint } from './lib/phase-footprint.mjs';
import { runExport } from './lib/phase-export.mjs';
import { runCluster } from './lib/phase-cluster.mjs';
import { runStats } from './lib/phase-stats.mjs';
import { runDuplicatesPart } from './lib/phase-duplicates.mjs';
import { runEvidence } from './lib/phase-evidence.mjs';
import { runMirror, runPageWeight } from './lib/phase-mirror.mjs';
import { runTestimony } from './lib/phase-testimony.mjs';
import { runImports } from './lib/phase-imports.mjs';
import { LIGHTHOUSE_BROWSERS } from './lib/web.mjs';
import { createPgDatabase, dbTask, dropPgDatabase, ensurePgDatabase } from './lib/data.mjs';
import { killAll, run, which } from './lib/proc.mjs';
import { signedInReader } from './lib/reader.mjs';
import { ROOT, siteWorkDir, startSite } from './lib/site.mjs';
import { fmt, table } from './lib/stats.mjs';

const opts = (() => {
  try {
    return parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`bench: ${err.message}`);
    process.exit(2);
  }
})();

if (opts.help) {
  console.log(`npm run bench -- [options]
  --only=http,queries,search,stats,footprint,web,testimony   parts to run (default: all seven; stats: GET /statistics
                            and the /statistics page uncached; testimony: a 50 MB video through the sealed intake)
  --only=mirror             the static mirror at the largest size (npm run admin -- mirror): time, peak memory, a second run
  --only=export             the whole collection streamed as CSV and NDJSON: rows/s and memory (not part of the default)
  --only=cluster            server processes behind a retrying proxy on PostgreSQL and Redis: one, two, and two
                            restarted in turn under load (needs --pg's server and Redis; not part of the default)
  --cluster-seconds=30      seconds of mixed load per cluster run
  --only=imports            a CSV of sample victims checked and written by the import job: seconds, rows/s, memory,
                            and list reads during the write (targets: <= 60 s check and >= 2,000 rows/s at 100k)
  --only=duplicates         duplicate people: the form's check (p50/p95/p99, target <= 50 ms p95 at 1M) and the
                            admins' pairs, on people of its own (not part of the default)
  --dup-scan-seconds=60     seconds the duplicates part scans people for pairs before measuring
  --only=evidence           an incident's evidence package (200 people, 500 originals, 50 captures) streamed: MB/s
                            against the disk's read rate, peak memory; then verify-package (not part of the default)
  --evidence-mb=200         the originals' total size in MB for --only=evidence (the issue's figure: 2000)
  --redis=redis://...       the Redis of the cluster part (default REDIS_URL or redis://127.0.0.1:6379)
  --sizes=1000,100000       record counts (default 1000,100000; with --pg also 1000000)
  --pg[=postgres://...]     a PostgreSQL server of your own instead of the embedded one (default URL postgres://postgres@127.0.0.1:5432/test;
                            a database bench_<timestamp> is created next to it and dropped at the end)
  --pg-database=NAME        with --pg: the database NAME on that server, made if missing, grown to each size and kept
                            (never dropped), so runs can share one data set (a million records take a while to make)
  --http-at=largest|all     sizes the wrk runs use (default: largest)
  --duration=10             seconds per wrk run (-t1 -c32 unless --connections=N)
  --soak=60                 seconds of unique-URL load in the footprint part (memory must stay flat)
  --rounds=3                cached-read runs alternate site and nginx this many times; the median round is shown
  --runs=30                 requests/queries per latency series (each series also stops after ~4 s)
  --lighthouse-runs=5       Lighthouse runs per page; the run with the median performance score is shown
  --lighthouse-browser=headless-shell|chromium
                            the browser Lighthouse drives (default headless-shell: Debian's chromium-headless-shell;
                            chromium's new headless mode runs the browser's UI unseen beside the page)
  --cpu-slowdown=4          Lighthouse's CPU multiplier (default 4, the mobile preset's; others for a calibration)
  --page-load-runs=7        page loads per page for main-thread CPU and bytes at a phone's screen size (median)
  --baseline=DIR            also run Lighthouse and the page loads on the build of another checkout (e.g. a clone
                            of an earlier commit, built with npm run build), taking turns with this one, and show both
  --no-build                use the existing apps/web/dist instead of running npm run build
  --max-minutes=30          stop everything after this long
  --out=file.json           where to write the figures (default bench/results/<timestamp>.json)
  --compare a.json b.json   print two result files side by side and exit`);
  process.exit(0);
}

if (opts.compare) {
  compareFiles(opts.compare[0], opts.compare[1]);
  process.exit(0);
}

const watchdog = setTimeout(() => {
  console.error(`\nbench: stopped after ${opts.maxMinutes} minutes (--max-minutes)`);
  killAll();
  process.exit(2);
}, opts.maxMinutes * 60_000);
watchdog.unref();

const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const work = siteWorkDir('bench-');
const results = {
  startedAt: new Date().toISOString(),
  command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
  machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? null, memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version, loadAvg1m: os.loadavg()[0] },
  driver: opts.pg ? 'postgres' : 'embedded',
  sizes: opts.sizes,
  parts: opts.only,
  seed: {},
  queries: {},
  search: {},
  stats: {},
  http: {},
  web: null,
  notes: [],
};

/**
 * Debian packages a part needs: installed here when running as root, otherwise the exact command is printed.
 * `commands` are what must exist afterwards (names on PATH or absolute paths). True when they all do.
 */
async function ensureDebianPackages({ packages, commands, part }) {
  const present = (cmd) => (cmd.startsWith('/') ? existsSync(cmd) : which(cmd));
  const missing = commands.filter((cmd) => !present(cmd));
  if (!missing.length) return true;
  const install = `apt-get update && apt-get install -y ${packages.join(' ')}`;
  if (process.getuid?.() === 0) {
    console.log(`Installing ${missing.join(' and ')}: ${install}`);
    const { code } = await run('sh', ['-c', `${install} >/dev/null`], { timeoutMs: 300_000, echo: true });
    if (code === 0 && commands.every(present)) return true;
  }
  const note = `${part}: ${missing.join(' and ')} not installed. Install with: sudo ${install}`;
  console.log(note);
  results.notes.push(note);
  return false;
}

/** The browser Lighthouse runs in: the one asked for, or chromium when the headless shell cannot be installed. */
async function lighthouseBrowser() {
  const wanted = LIGHTHOUSE_BROWSERS[opts.lighthouseBrowser];
  const ready = await ensureDebianPackages({ packages: [wanted.debianPackage], commands: [wanted.path], part: 'Lighthouse' });
  if (ready || opts.lighthouseBrowser === 'chromium') return { name: opts.lighthouseBrowser, path: wanted.path };
  const note = 'Lighthouse runs in chromium instead (--lighthouse-browser=chromium); its scores vary more on a 2-core machine';
  console.log(note);
  results.notes.push(note);
  return { name: 'chromium', path: LIGHTHOUSE_BROWSERS.chromium.path };
}

async function main() {
  console.log(`Bench: ${results.driver}, sizes ${opts.sizes.map((n) => n.toLocaleString('en')).join(', ')}, parts ${opts.only.join(', ')}`);
  console.log(`Machine: ${results.machine.cpus} CPUs (${results.machine.cpuModel}), load ${results.machine.loadAvg1m.toFixed(1)}, Node ${process.version}`);
  console.log(`Work folder: ${work}\n`);
  const haveWrk =
    ['http', 'footprint', 'search'].some((part) => opts.only.includes(part)) &&
    (await ensureDebianPackages({ packages: ['nginx-light', 'wrk'], commands: ['wrk', 'nginx'], part: 'http and footprint parts, and the load runs of the search part, skipped' }));
  const doHttp = opts.only.includes('http') && haveWrk;
  const databaseUrl = !opts.pg
    ? null
    : opts.pgDatabase
      ? await ensurePgDatabase(opts.pgUrl, opts.pgDatabase)
      : await createPgDatabase(opts.pgUrl, `bench_${stamp.replace(/-/g, '').toLowerCase().slice(0, 15)}`);
  const dataDir = path.join(work, 'data');
  try {
    if (['http', 'queries', 'search', 'stats'].some((part) => opts.only.includes(part))) {
      const httpSizes = opts.httpAt === 'all' ? opts.sizes : [opts.sizes.at(-1)];
      for (const size of opts.sizes) {
        console.log(`== ${size.toLocaleString('en')} records ==`);
        const seeded = await dbTask({ action: 'seed', size, dataDir, databaseUrl, mediaEvery: 20 });
        results.seed[size] = seeded;
        console.log(
          `Seeded ${fmt.n(seeded.inserted)} new records in ${seeded.seconds.toFixed(1)} s (total ${fmt.n(seeded.total)}, ` +
            `victims ${fmt.n(seeded.perCategory.victims)}, gallery images ${fmt.n(seeded.mediaRows)})`,
        );
        let sql = null;
        if (opts.only.includes('queries')) {
          const victims = seeded.perCategory.victims ?? 0;
          const deepOffset = Math.max(0, Math.min(50_000, Math.floor((victims - 50) / 50) * 50));
          sql = await dbTask({ action: 'time', size, dataDir, databaseUrl, runs: opts.runs, deepOffset });
        }
        const siteOptions = { dataDir, databaseUrl, logFile: path.join(work, 'site.log') };
        if (sql) {
          const site = await startSite(siteOptions);
          try {
            results.queries[size] = await runQueries({ site, sql, runs: opts.runs, authorization: await signedInReader({ site, dataDir, databaseUrl }) });
            (results.pageWeight ??= {})[size] = await runPageWeight({ site });
          } finally {
            await site.stop();
          }
        }
        if (opts.only.includes('search')) {
          const site = await startSite(siteOptions);
          try {
            results.search[size] = await runSearch({
              site,
              runs: opts.runs,
              authorization: await signedInReader({ site, dataDir, databaseUrl }),
              work,
              durationS: opts.duration,
              connections: opts.connections,
              size,
              load: haveWrk,
            });
          } finally {
            await site.stop();
          }
        }
        if (opts.only.includes('stats')) {
          const statsSql = await dbTask({ action: 'stats', size, dataDir, databaseUrl, runs: opts.runs });
          const site = await startSite(siteOptions);
          try {
            const authorization = await signedInReader({ site, dataDir, databaseUrl });
            results.stats[size] = await runStats({ site, sql: statsSql, runs: opts.runs, authorization, size });
          } finally {
            await site.stop();
          }
        }
        if (doHttp && httpSizes.includes(size)) {
          // A site of its own, so its memory figures are those of serving reads, not of the query series before.
          const site = await startSite(siteOptions);
          try {
            const authorization = await signedInReader({ site, dataDir, databaseUrl });
            results.http[size] = await runHttp({ site, work, durationS: opts.duration, connections: opts.connections, rounds: opts.rounds, authorization });
          } finally {
            await site.stop();
          }
        }
      }
      if (opts.only.includes('queries')) printGrowth();
    }
    if (opts.only.includes('footprint')) {
      const size = opts.sizes.at(-1);
      if (!results.seed[size]) results.seed[size] = await dbTask({ action: 'seed', size, dataDir, databaseUrl, mediaEvery: 20 });
      results.footprint = haveWrk
        ? await runFootprint({ dataDir, databaseUrl, logFile: path.join(work, 'site.log'), durationS: opts.duration, connections: opts.connections, size, soakS: opts.soak })
        : null;
    }
    if (opts.only.includes('export')) {
      const size = opts.sizes.at(-1);
      if (!results.seed[size]) results.seed[size] = await dbTask({ action: 'seed', size, dataDir, databaseUrl, mediaEvery: 20 });
      const site = await startSite({ dataDir, databaseUrl, logFile: path.join(work, 'site.log') });
      try {
        results.export = await runExport({ site, size });
      } finally {
        await site.stop();
      }
    }
    if (opts.only.includes('mirror')) {
      const size = opts.sizes.at(-1);
      if (!results.seed[size]) results.seed[size] = await dbTask({ action: 'seed', size, dataDir, databaseUrl, mediaEvery: 20 });
      results.mirror = await runMirror({ dataDir, databaseUrl, size });
    }
    if (opts.only.includes('testimony')) {
      results.testimony = runTestimony({ root: path.resolve(import.meta.dirname, '..') });
    }
    if (opts.only.includes('imports')) {
      const size = opts.sizes.at(-1);
      if (!results.seed[size]) results.seed[size] = await dbTask({ action: 'seed', size, dataDir, databaseUrl, mediaEvery: 20 });
      const site = await startSite({ dataDir, databaseUrl, logFile: path.join(work, 'site.log') });
      try {
        results.imports = await runImports({ site, size, work, dataDir, databaseUrl });
      } finally {
        await site.stop();
      }
    }
    if (opts.only.includes('duplicates')) {
      results.duplicates = await runDuplicatesPart({ sizes: opts.sizes, dataDir, databaseUrl, logFile: path.join(work, 'site.log'), scanS: opts.dupScanSeconds });
    }
    if (opts.only.includes('evidence')) results.evidence = await runEvidence({ mb: opts.evidenceMb });
    if (opts.only.includes('cluster')) {
      results.cluster = await runCluster({ work, pgUrl: opts.pgUrl, redisUrl: opts.redisUrl, durationS: opts.clusterSeconds, connections: opts.connections });
    }
    if (opts.only.includes('web')) {
      results.web = await runWeb({
        work,
        build: opts.build,
        lighthouseRuns: opts.lighthouseRuns,
        lighthouseBrowser: await lighthouseBrowser(),
        cpuSlowdown: opts.cpuSlowdown,
        pageLoadRuns: opts.pageLoadRuns,
        baseline: opts.baseline,
      });
    }
  } finally {
    if (databaseUrl && !opts.pgDatabase) await dropPgDatabase(opts.pgUrl, databaseUrl).catch((err) => console.error(`Could not drop ${databaseUrl}: ${err.message}`));
  }
}

/** How each uncached read grows from the smallest to the largest size. */
function printGrowth() {
  const sizes = Object.keys(results.queries).map(Number);
  if (sizes.length < 2) return;
  const [first, last] = [sizes[0], sizes.at(-1)];
  const rows = [];
  for (const group of ['sql', 'httpMiss', 'httpSignedIn']) {
    for (const name of Object.keys(results.queries[last][group] ?? {})) {
      const at = (size) => results.queries[size][group]?.[name]?.medianMs ?? null;
      const a = at(first);
      const b = at(last);
      rows.push([`${group} ${name}`, ...sizes.map((s) => fmt.ms(at(s))), a && b ? `x${(b / a).toFixed(1)}` : null]);
    }
  }
  console.log(`\nUncached latency growth, median ms (${first.toLocaleString('en')} -> ${last.toLocaleString('en')} records, ${results.driver})`);
  console.log(table(['read', ...sizes.map((s) => s.toLocaleString('en')), 'growth'], rows));
}

const exitCode = await main()
  .then(() => 0)
  .catch((err) => {
    console.error(`\nbench failed: ${err.stack ?? err}`);
    results.error = String(err.message ?? err);
    return 1;
  });
results.finishedAt = new Date().toISOString();
const out = opts.out ?? path.join(ROOT, 'bench/results', `${stamp}.json`);
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nFigures written to ${path.relative(process.cwd(), out)}`);
if (!opts.keep) rmSync(work, { recursive: true, force: true });
else console.log(`Work folder kept: ${work}`);
killAll();
process.exit(exitCode);
