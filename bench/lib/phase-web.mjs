// Web app: build, the compressed JS+CSS the home page needs, and Lighthouse (mobile) on the home and a list page.
import path from 'node:path';
import { dbTask } from './data.mjs';
import { startSite } from './site.mjs';
import { fmt, table } from './stats.mjs';
import { browserAssets, buildWeb, hasBuild, lighthouse, staticHomeAssets, weigh } from './web.mjs';

export async function runWeb({ work, build }) {
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
      try {
        console.log(`Lighthouse (mobile) ${pagePath}...`);
        result.lighthouse[name] = { path: pagePath, ...(await lighthouse(`${site.url}${pagePath}`)) };
      } catch (err) {
        result.lighthouse[name] = { path: pagePath, error: err.message };
        console.log(`  failed: ${err.message}`);
      }
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
    console.log('\nLighthouse 12, mobile preset (simulated throttling), local production build');
    console.log(table(['page', 'perf', 'a11y', 'best-pr', 'SEO', 'LCP ms', 'FCP ms', 'TBT ms', 'CLS'], rows));
    for (const [name, r] of Object.entries(result.lighthouse)) {
      if (r.error) console.log(`  ${name}: ${r.error}`);
      else if (r.runtimeError) console.log(`  ${name}: runtime error ${r.runtimeError}`);
      if (r.failedAudits?.length) console.log(`  ${name} failed audits: ${r.failedAudits.join(', ')}`);
    }
  } finally {
    await site.stop();
  }
  return result;
}
