// The editors' screens on a slow phone: how soon /dashboard and an add form paint, signed in, with the CPU slowed down
// as Lighthouse's mobile preset does (4x by default). Those screens are drawn by the browser (the server sends their
// frame only), so their first paint is what a signed-in editor waits for on a cheap phone (issue 38, item 23).
import { median, turnOrder } from './stats.mjs';
import { CHROMIUM, CHROMIUM_FLAGS } from './web.mjs';

/** The screens measured: the dashboard, and an add form (the dashboard with a category chosen, its own address). */
export const EDITOR_PAGES = [
  ['dashboard', '/dashboard'],
  ['add form', '/dashboard?category=victims'],
];

/** Issue 38's target: the first paint of these screens at the CPU slowdown. */
export const FIRST_PAINT_TARGET_MS = 1500;

/** Lighthouse 12's mobile preset: a Moto G Power's screen. */
const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };

/**
 * Records, in the page, when the app is ready (main.tsx marks <html data-app="ready">) and when the add form's first
 * field is there: milliseconds since the navigation started, like the paint timings.
 */
function watchMilestones() {
  const seen = {};
  const check = () => {
    if (seen.ready === undefined && document.documentElement.dataset.app === 'ready') seen.ready = performance.now();
    if (seen.form === undefined && document.querySelector('form input[name="title"]')) seen.form = performance.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-app'] });
  window.__benchMilestones = seen;
}

/** One load of `pageUrl` signed in with `token`, in a fresh browser at `cpuSlowdown`x: its paint and ready times (ms). */
async function loadOnce(pageUrl, token, cpuSlowdown) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const context = await browser.newContext(PHONE);
    await context.addInitScript((t) => window.localStorage.setItem('token', t), token);
    await context.addInitScript(watchMilestones);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
    await page.goto(pageUrl, { waitUntil: 'load', timeout: 120_000 });
    await page.waitForFunction(() => window.__benchMilestones.ready !== undefined, null, { timeout: 120_000 });
    // A build whose dashboard has no form address (a baseline) never shows it: its form time stays empty.
    if (new URL(pageUrl).searchParams.has('category')) {
      await page.waitForFunction(() => window.__benchMilestones.form !== undefined, null, { timeout: 15_000 }).catch(() => undefined);
    }
    return await page.evaluate(() => {
      const paint = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
      return { firstPaintMs: paint('first-paint'), fcpMs: paint('first-contentful-paint'), readyMs: window.__benchMilestones.ready, formMs: window.__benchMilestones.form ?? null };
    });
  } finally {
    await browser.close();
  }
}

/**
 * `runs` loads of each editor screen on each site (taking turns, so the machine's bursts of other work fall on both
 * alike), signed in with the site's `token`. Medians per site and page.
 */
export async function editorPaintSeries(sites, runs, cpuSlowdown) {
  const results = sites.map(() => ({}));
  for (const [name, pagePath] of EDITOR_PAGES) {
    console.log(`Editor screen ${pagePath}: ${runs} loads per site, signed in, CPU ${cpuSlowdown}x slower...`);
    const bySite = sites.map(() => []);
    for (let round = 0; round < runs; round++) {
      for (const i of turnOrder(sites.length, round)) bySite[i].push(await loadOnce(new URL(pagePath, sites[i].url).href, sites[i].token, cpuSlowdown));
    }
    bySite.forEach((loads, i) => {
      const of = (key) => median(loads.map((l) => l[key]).filter((v) => typeof v === 'number'));
      results[i][name] = {
        path: pagePath,
        runs: loads.length,
        firstPaintMs: of('firstPaintMs'),
        fcpMs: of('fcpMs'),
        readyMs: of('readyMs'),
        formMs: loads.some((l) => l.formMs !== null) ? of('formMs') : null,
        fcpMsEveryRun: loads.map((l) => (l.fcpMs === null ? null : Math.round(l.fcpMs))),
      };
    });
  }
  return results;
}

/** The verdicts: each screen's median first contentful paint against the target. */
export function editorPaintVerdicts(figures, cpuSlowdown) {
  return Object.entries(figures).map(([name, r]) => ({
    target: `${name} ${r.path}, signed in, CPU ${cpuSlowdown}x: first contentful paint <= ${FIRST_PAINT_TARGET_MS} ms`,
    figure: r.fcpMs === null ? 'no paint recorded' : `${Math.round(r.fcpMs)} ms (median of ${r.runs})`,
    met: r.fcpMs !== null && r.fcpMs <= FIRST_PAINT_TARGET_MS,
  }));
}
