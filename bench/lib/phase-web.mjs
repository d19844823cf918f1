// Web app: build, the compressed JS+CSS the home page needs, Lighthouse (mobile) on the home page, a list page, a
// search and the statistics, and the first paint of the editors' screens (dashboard, add form) at the CPU slowdown.
import path from 'node:path';
import { dbTask } from './data.mjs';
import { editorPaintSeries, editorPaintVerdicts } from './editor-paint.mjs';
import { startEmptyPage } from './empty-page.mjs';
import { pageLoadSeries, SETTLE_MS } from './page-load.mjs';
import { startSite } from './site.mjs';
import { signedInReader } from './reader.mjs';
import { fmt, median, table, turnOrder } from './stats.mjs';
import { printVerdicts, webVerdicts } from './targets.mjs';
import { browserAssets, buildWeb, DEFAULT_CPU_SLOWDOWN, hasBuild, lighthouse, staticHomeAssets, weigh } from './web.mjs';

const scoredRun = (run) => typeof run.performance === 'number';

/** The pages measured: the home page, a list page, a search and the statistics. */
const PAGES = [
  ['home', '/'],
  ['list', '/victims'],
  ['search', '/search?q=sample'],
  ['statistics', '/statistics'],
];

/** The run with the median performance score, and every run's figures. */
function medianRun(pagePath, runs) {
  const scored = runs.filter(scoredRun).sort((a, b) => a.performance - b.performance);
  const median = scored[Math.floor((scored.length - 1) / 2)] ?? runs[0];
  return median
    ? { path: pagePath, ...median, runs: runs.map((r) => ({ performance: r.performance, lcpMs: r.lcpMs, tbtMs: r.tbtMs, benchmarkIndex: r.benchmarkIndex, runtimeError: r.runtimeError })) }
    : { path: pagePath, error: 'every Lighthouse run failed' };
}

/**
 * Lighthouse on one page of each site, `runs` scored runs each. With two sites (this build and a baseline) they take
 * turns, starting with each in alternate rounds, so the machine's bursts of other work fall on both alike.
 */
async function lighthouseSeries(sites, pagePath, runs, settings) {
  // Pages are rendered by the server once per change and then served from its cache to every visitor: the first
  // request, which renders, is made here, so Lighthouse measures what visitors get.
  for (const site of sites) await fetch(`${site.url}${pagePath}`).then((res) => res.text());
  const bySite = sites.map(() => []);
  const attempts = sites.map(() => 0);
  const scored = (i) => bySite[i].filter(scoredRun).length;
  for (let round = 0; sites.some((_, i) => scored(i) < runs); round++) {
    for (const i of turnOrder(sites.length, round)) {
      // A run Lighthouse itself could not score (it sometimes loses the trace's start: NO_NAVSTART) is run again.
      if (scored(i) >= runs || attempts[i] >= runs + 2) continue;
      attempts[i]++;
      try {
        console.log(`Lighthouse (mobile) ${sites[i].name} ${pagePath}, run ${scored(i) + 1} of ${runs}...`);
        bySite[i].push(await lighthouse(`${sites[i].url}${pagePath}`, settings));
      } catch (err) {
        console.log(`  failed: ${err.message}`);
      }
    }
    if (attempts.every((n, i) => n >= runs + 2 || scored(i) >= runs)) break;
  }
  return bySite.map((r) => medianRun(pagePath, r));
}

/** `lighthouseBrowser`: { name, path } of the browser Lighthouse runs in (see LIGHTHOUSE_BROWSERS). */
export async function runWeb({
  work,
  build,
  lighthouseRuns = 5,
  lighthouseBrowser,
  cpuSlowdown = DEFAULT_CPU_SLOWDOWN,
  pageLoadRuns = 7,
  baseline = null,
}) {
  const result = {
    build: null,
    home: null,
    lighthouseSettings: { browser: lighthouseBrowser.name, browserPath: lighthouseBrowser.path, cpuSlowdown },
    lighthouse: {},
    pageLoad: {},
    editorPaint: {},
    baseline: baseline ? { root: path.resolve(baseline), lighthouse: {}, pageLoad: {}, editorPaint: {} } : null,
  };
  if (build || !hasBuild()) {
    console.log('\nBuilding the web app (npm run build)...');
    result.build = await buildWeb();
    console.log(`Built in ${result.build.seconds.toFixed(1)} s`);
  }
  if (baseline && !hasBuild(path.join(path.resolve(baseline), 'apps/web/dist'))) {
    throw new Error(`--baseline=${baseline}: no build there (run npm ci && npm run build in that checkout)`);
  }
  // Each site its own small data folder: 1,000 benchmark records, no gallery rows (their image files do not exist).
  const sites = [];
  try {
    for (const [name, root] of [['this build', undefined], ...(baseline ? [['baseline', path.resolve(baseline)]] : [])]) {
      const dataDir = path.join(work, `web-data-${sites.length}`);
      await dbTask({ action: 'seed', size: 1000, dataDir, mediaEvery: 0 });
      sites.push({ name, dataDir, ...(await startSite({ dataDir, root, logFile: path.join(work, `site-web-${sites.length}.log`) })) });
    }
    const site = sites[0];
    const fromHtml = weigh(staticHomeAssets());
    const loaded = await browserAssets(site.url, '/');
    const fromBrowser = weigh(loaded.map((a) => a.file));
    const servedEncodings = [...new Set(loaded.map((a) => a.encoding))];
    result.home = {
      indexHtml: fromHtml,
      browser: { ...fromBrowser, files: fromBrowser.files.map((f, i) => ({ ...f, servedEncoding: loaded[i].encoding })) },
      servedEncodings,
    };
    console.log(`\nHome page JS+CSS (brotli q11 / gzip -9 of the built files; the site sent: ${servedEncodings.join(', ')})`);
    console.log(
      table(
        ['file', 'raw KB', 'brotli KB', 'gzip KB', 'in index.html'],
        [
          ...fromBrowser.files.map((f) => [f.file, fmt.kb(f.raw), fmt.kb(f.br), fmt.kb(f.gzip), fromHtml.files.some((h) => h.file === f.file) ? 'yes' : 'lazy']),
          ['total loaded by chromium on /', fmt.kb(fromBrowser.raw), fmt.kb(fromBrowser.br), fmt.kb(fromBrowser.gzip), ''],
          ['of which index.html entry+preloads', fmt.kb(fromHtml.raw), fmt.kb(fromHtml.br), fmt.kb(fromHtml.gzip), ''],
        ],
      ),
    );

    // Each measure's figures per page, this build's and the baseline's, stored under `key`.
    const measurePages = async (key, series) => {
      for (const [name, pagePath] of PAGES) {
        const [own, base] = await series(pagePath);
        result[key][name] = own;
        if (base) result.baseline[key][name] = base;
      }
    };
    // A table's rows: this build's pages, then the baseline's.
    const rowsOf = (key, row) => {
      const of = (figures, label) => Object.entries(figures).map(([name, r]) => [`${name} ${r.path}${label}`, ...row(r)]);
      return [...of(result[key], ''), ...(result.baseline ? of(result.baseline[key], ' (baseline)') : [])];
    };

    const settings = { browserPath: lighthouseBrowser.path, cpuSlowdown };
    await measurePages('lighthouse', (pagePath) => lighthouseSeries(sites, pagePath, lighthouseRuns, settings));
    const rows = rowsOf('lighthouse', (r) => [
      r.performance,
      r.accessibility,
      r.bestPractices,
      r.seo,
      fmt.n(r.lcpMs),
      fmt.n(r.fcpMs),
      fmt.n(r.tbtMs),
      r.cls === null || r.cls === undefined ? null : r.cls.toFixed(3),
    ]);
    const slowdown = cpuSlowdown === DEFAULT_CPU_SLOWDOWN ? '' : `, CPU slowdown ${cpuSlowdown}x instead of ${DEFAULT_CPU_SLOWDOWN}x`;
    const browserVersion = result.lighthouse.home?.browser?.match(/(?:HeadlessChrome|Chrome)\/[\d.]+/)?.[0] ?? '';
    console.log(`\nLighthouse 12, mobile preset (simulated throttling${slowdown}), local production build; median of ${lighthouseRuns} runs by performance`);
    console.log(`browser: ${lighthouseBrowser.path} ${browserVersion}`.trimEnd());
    if (result.baseline) console.log(`baseline: the build in ${result.baseline.root}, runs taking turns with this build's`);
    console.log(table(['page', 'perf', 'a11y', 'best-pr', 'SEO', 'LCP ms', 'FCP ms', 'TBT ms', 'CLS'], rows));
    const everyRun = (figures, label) => {
      for (const [name, r] of Object.entries(figures)) {
        if (r.error) console.log(`  ${name}${label}: ${r.error}`);
        else if (r.runtimeError) console.log(`  ${name}${label}: runtime error ${r.runtimeError}`);
        if (r.failedAudits?.length) console.log(`  ${name}${label} failed audits: ${r.failedAudits.join(', ')}`);
        if (r.runs?.length) {
          const runs = r.runs.map((x) => `${x.performance} / ${fmt.n(x.lcpMs)} / ${fmt.n(x.tbtMs)} / ${fmt.n(x.benchmarkIndex)}`);
          console.log(`  ${name}${label} every run (perf / LCP ms / TBT ms / machine's benchmark index): ${runs.join(', ')}`);
        }
      }
    };
    everyRun(result.lighthouse, '');
    if (result.baseline) everyRun(result.baseline.lighthouse, ' (baseline)');

    // An empty page takes its turn with the sites' pages: what any page load costs before the page's own work.
    const emptyPage = await startEmptyPage();
    const emptyLoads = [];
    try {
      await measurePages('pageLoad', async (pagePath) => {
        console.log(`Page load ${pagePath}: ${pageLoadRuns} loads per site and of an empty page at 412x823...`);
        const figures = await pageLoadSeries([...sites, emptyPage], pagePath, pageLoadRuns);
        emptyLoads.push(...figures.at(-1).cpuMsEveryRun);
        return figures.slice(0, sites.length);
      });
    } finally {
      await emptyPage.stop();
    }
    result.emptyPageLoad = { cpuMs: median(emptyLoads), runs: emptyLoads.length, cpuMsEveryRun: emptyLoads };
    const emptyCpu = result.emptyPageLoad.cpuMs;
    console.log(`\nPage load at 412x823 (Lighthouse's phone), fresh browser each time, until ${SETTLE_MS / 1000} s after the load event; median of ${pageLoadRuns}`);
    console.log("main-thread CPU: the page renderer's thread CPU time (waits for the machine's other work not counted)");
    console.log(`the page's own: its main-thread CPU less an empty page's (one paragraph, no CSS, font or script: ${fmt.n(emptyCpu, 1)} ms, median of ${emptyLoads.length} loads taking turns with the pages')`);
    console.log(
      table(
        ['page', 'main-thread CPU ms', "page's own ms", 'script ms', 'longest task ms', 'tasks > 5 ms', 'KB transferred', 'requests', 'CPU ms, every run'],
        rowsOf('pageLoad', (r) => [fmt.n(r.cpuMs, 1), fmt.n(r.cpuMs - emptyCpu, 1), fmt.n(r.scriptMs, 1), fmt.n(r.longestTaskMs, 1), r.tasksOver5Ms, fmt.kb(r.bytes), r.requests, r.cpuMsEveryRun.join(' ')]),
      ),
    );
    // Issue 43's reading-page targets, judged on this build's figures above.
    result.verdicts = webVerdicts(result);
    printVerdicts(result.verdicts);

    // The editors' screens, signed in as the bench's reader (a super of the bench's throw-away data).
    for (const site of sites) site.token = (await signedInReader({ site, dataDir: site.dataDir })).replace(/^Bearer /, '');
    const [ownPaint, basePaint] = await editorPaintSeries(sites, pageLoadRuns, cpuSlowdown);
    result.editorPaint = ownPaint;
    if (basePaint) result.baseline.editorPaint = basePaint;
    console.log(`\nEditors' screens at 412x823, signed in, CPU ${cpuSlowdown}x slower (no network throttling), fresh browser each time; median of ${pageLoadRuns}`);
    console.log('times from the start of the navigation; ready: the app has drawn the screen; form: the add form is there');
    console.log(
      table(
        ['page', 'first paint ms', 'FCP ms', 'ready ms', 'form ms', 'FCP ms, every run'],
        rowsOf('editorPaint', (r) => [fmt.n(r.firstPaintMs), fmt.n(r.fcpMs), fmt.n(r.readyMs), r.formMs === null ? '' : fmt.n(r.formMs), r.fcpMsEveryRun.join(' ')]),
      ),
    );
    printVerdicts(editorPaintVerdicts(result.editorPaint, cpuSlowdown));
  } finally {
    for (const site of sites) await site.stop();
  }
  return result;
}
