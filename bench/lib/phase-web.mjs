// Web app: build, the compressed JS+CSS the home page needs, and Lighthouse (mobile) on the home and a list page.
import path from 'node:path';
import { dbTask } from './data.mjs';
import { startSite } from './site.mjs';
import { fmt, table } from './stats.mjs';
import { browserAssets, buildWeb, hasBuild, lighthouse, staticHomeAssets, weigh } from './web.mjs';

const scoredRun = (run) => typeof run.performance === 'number';

export async function runWeb({ work, build, lighthouseRuns = 5 }) {
  const result = { build: null, home: null, lighthouse: {} };
  if (build || !hasBuild()) {
    console.log('\nBuilding the web app (npm run build)...');
    result.build = await buildWeb();
    console.log(`Built in ${result.build.seconds.toFixed(1)} s`);
  }
  // Its own small data folder: 1,000 benchmark records, no gallery rows (their image files do not exist).
  const dataDir = path.join(work, 'web-data');
  await dbTask({ action: 'seed', size: 1000, pgliteDir: path.join(dataDir, 'pglite'), mediaEvery: 0 });
  const site = await startSite({ dataDir, logFile: path.join(work, 'site-web.log') });
  try {
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

    for (const [name, pagePath] of [['home', '/'], ['list', '/victims']]) {
      // Pages are rendered by the server once per change and then served from its cache to every visitor: the
      // first request, which renders, is made here, so Lighthouse measures what visitors get.
      await fetch(`${site.url}${pagePath}`).then((res) => res.text());
      const runs = [];
      // A run Lighthouse itself could not score (it sometimes loses the trace's start: NO_NAVSTART) is run again.
      for (let attempt = 1; runs.filter(scoredRun).length < lighthouseRuns && attempt <= lighthouseRuns + 2; attempt++) {
        try {
          console.log(`Lighthouse (mobile) ${pagePath}, run ${runs.filter(scoredRun).length + 1} of ${lighthouseRuns}...`);
          runs.push(await lighthouse(`${site.url}${pagePath}`));
        } catch (err) {
          console.log(`  failed: ${err.message}`);
        }
      }
      const scored = runs.filter(scoredRun).sort((a, b) => a.performance - b.performance);
      const median = scored[Math.floor((scored.length - 1) / 2)] ?? runs[0];
      result.lighthouse[name] = median
        ? { path: pagePath, ...median, runs: runs.map((r) => ({ performance: r.performance, lcpMs: r.lcpMs, tbtMs: r.tbtMs, runtimeError: r.runtimeError })) }
        : { path: pagePath, error: 'every Lighthouse run failed' };
    }
    const rows = Object.entries(result.lighthouse).map(([name, r]) => [
      `${name} ${r.path}`,
      r.performance,
      r.accessibility,
      r.bestPractices,
      r.seo,
      fmt.n(r.lcpMs),
      fmt.n(r.fcpMs),
      fmt.n(r.tbtMs),
      r.cls === null || r.cls === undefined ? null : r.cls.toFixed(3),
    ]);
    console.log(`\nLighthouse 12, mobile preset (simulated throttling), local production build; median of ${lighthouseRuns} runs by performance`);
    console.log(table(['page', 'perf', 'a11y', 'best-pr', 'SEO', 'LCP ms', 'FCP ms', 'TBT ms', 'CLS'], rows));
    for (const [name, r] of Object.entries(result.lighthouse)) {
      if (r.error) console.log(`  ${name}: ${r.error}`);
      else if (r.runtimeError) console.log(`  ${name}: runtime error ${r.runtimeError}`);
      if (r.failedAudits?.length) console.log(`  ${name} failed audits: ${r.failedAudits.join(', ')}`);
      if (r.runs?.length) console.log(`  ${name} every run (perf / LCP ms / TBT ms): ${r.runs.map((x) => `${x.performance} / ${fmt.n(x.lcpMs)} / ${fmt.n(x.tbtMs)}`).join(', ')}`);
    }
  } finally {
    await site.stop();
  }
  return result;
}
