// What loading one page costs a phone, measured directly rather than scored: the page renderer's main-thread CPU
// time and the bytes transferred, at Lighthouse's mobile screen size. Lighthouse multiplies observed wall times (CPU
// time plus whatever else the machine did meanwhile), so on this shared machine its score of one build moves by
// points between runs, even in the headless shell; thread CPU time does not count that wait, so two builds compare
// closely (bench/README.md, web).
import { median, turnOrder } from './stats.mjs';
import { CHROMIUM, CHROMIUM_FLAGS } from './web.mjs';

/** Lighthouse 12's mobile preset: a Moto G Power's screen. */
const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };

/** After the load event, how long the page is left to finish starting (the app takes over in later tasks). */
export const SETTLE_MS = 3000;

const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'];

/** The page's own renderer: the one whose HTML parser read `pageUrl` (headless Chromium runs other renderers too). */
function pageMainThreadTasks(events, pageUrl) {
  const parse = events.find((e) => e.name === 'ParseHTML' && e.args?.beginData?.url === pageUrl);
  if (!parse) throw new Error(`the trace has no parsing of ${pageUrl}`);
  const thread = events.find((e) => e.pid === parse.pid && e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const tid = thread?.tid ?? parse.tid;
  return events.filter((e) => e.pid === parse.pid && e.tid === tid && e.ph === 'X' && e.name === 'RunTask' && typeof e.tdur === 'number');
}

/** One load of `pageUrl` in a fresh browser: main-thread CPU (ms), script run (ms, ScriptDuration), its longest task, tasks over 5 ms, bytes, requests. */
async function loadOnce(pageUrl) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage(PHONE);
    // Each finished request's size, read when the load is over (a size arrives after its request has finished).
    const sizes = [];
    page.on('requestfinished', (request) => {
      sizes.push(request.sizes().then((s) => s.responseBodySize + s.responseHeadersSize, () => 0));
    });
    // Chrome's own count of the time spent running script (ScriptDuration), as DevTools' Performance monitor shows it.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    await page.goto(pageUrl, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForTimeout(SETTLE_MS);
    const { metrics } = await cdp.send('Performance.getMetrics');
    const scriptSeconds = metrics.find((m) => m.name === 'ScriptDuration')?.value ?? 0;
    const trace = JSON.parse((await browser.stopTracing()).toString());
    const cpu = pageMainThreadTasks(trace.traceEvents, pageUrl).map((task) => task.tdur / 1000);
    const bytes = (await Promise.all(sizes)).reduce((sum, n) => sum + n, 0);
    return {
      cpuMs: cpu.reduce((sum, ms) => sum + ms, 0),
      scriptMs: scriptSeconds * 1000,
      longestTaskMs: Math.max(0, ...cpu),
      tasksOver5Ms: cpu.filter((ms) => ms > 5).length,
      bytes,
      requests: sizes.length,
    };
  } finally {
    await browser.close();
  }
}

/**
 * `runs` loads of `pagePath` on each site, taking turns (first one site, then the other), so the machine's bursts of
 * other work fall on both alike. Medians per site.
 */
export async function pageLoadSeries(sites, pagePath, runs) {
  const bySite = sites.map(() => []);
  for (let round = 0; round < runs; round++) {
    for (const i of turnOrder(sites.length, round)) bySite[i].push(await loadOnce(new URL(pagePath, sites[i].url).href));
  }
  return bySite.map((loads) => ({
    path: pagePath,
    runs: loads.length,
    cpuMs: median(loads.map((l) => l.cpuMs)),
    scriptMs: median(loads.map((l) => l.scriptMs)),
    longestTaskMs: median(loads.map((l) => l.longestTaskMs)),
    tasksOver5Ms: median(loads.map((l) => l.tasksOver5Ms)),
    bytes: median(loads.map((l) => l.bytes)),
    requests: median(loads.map((l) => l.requests)),
    cpuMsEveryRun: loads.map((l) => Math.round(l.cpuMs)),
  }));
}
