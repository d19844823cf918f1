// The web app's weight and Lighthouse scores.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { run } from './proc.mjs';
import { ROOT } from './site.mjs';
import { CHROMIUM_FLAGS } from '../../packages/shared/src/chromium-flags.ts';

export { CHROMIUM_FLAGS };

export const DIST = path.join(ROOT, 'apps/web/dist');
export const CHROMIUM = process.env.CHROME_PATH || '/usr/bin/chromium';

export async function buildWeb() {
  const started = performance.now();
  const { code, stdout, stderr } = await run('npm', ['run', 'build'], { cwd: ROOT, timeoutMs: 300_000 });
  if (code !== 0) throw new Error(`npm run build failed:\n${stdout}\n${stderr}`);
  return { seconds: (performance.now() - started) / 1000 };
}

export function hasBuild(distDir = DIST) {
  return existsSync(path.join(distDir, 'index.html'));
}

/** What index.html itself asks for: the entry script, its stylesheets and the modulepreload links. */
export function staticHomeAssets(distDir = DIST) {
  const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const found = new Set();
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const isScript = tag.startsWith('<script') && /type="module"/.test(tag);
    const rel = /rel="([^"]+)"/.exec(tag)?.[1];
    const ref = /(?:src|href)="([^"]+)"/.exec(tag)?.[1];
    if (!ref || !/\.(js|css)$/.test(ref)) continue;
    if (isScript || rel === 'stylesheet' || rel === 'modulepreload') found.add(ref);
  }
  return [...found];
}

/**
 * Every .js and .css file the browser fetches for `pagePath` (entry, preloads, the route's lazy chunk and whatever
 * it imports), recorded by loading the page in Debian's chromium.
 */
export async function browserAssets(siteUrl, pagePath = '/') {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage();
    const seen = new Map();
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin !== new URL(siteUrl).origin || !/\.(js|css)$/.test(url.pathname)) return;
      seen.set(url.pathname, { status: response.status(), encoding: response.headers()['content-encoding'] ?? 'identity' });
    });
    await page.goto(new URL(pagePath, siteUrl).href, { waitUntil: 'networkidle', timeout: 60_000 });
    return [...seen].map(([file, info]) => ({ file, ...info }));
  } finally {
    await browser.close();
  }
}

/** Compressed sizes as a pre-compressing build or CDN would send them: brotli q11 and gzip -9. */
export function weigh(files, distDir = DIST) {
  const rows = files.map((file) => {
    const bytes = readFileSync(path.join(distDir, file.replace(/^\//, '')));
    return {
      file,
      raw: bytes.length,
      br: brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } }).length,
      gzip: gzipSync(bytes, { level: 9 }).length,
    };
  });
  const sum = (key) => rows.reduce((s, r) => s + r[key], 0);
  return { files: rows, raw: sum('raw'), br: sum('br'), gzip: sum('gzip') };
}

/**
 * The browsers Lighthouse can run in, both built from Debian's chromium source package. The headless shell (Chromium's
 * "old headless") is the default: the new headless mode of `chromium --headless` runs the whole browser unseen, with
 * a renderer of its own for the omnibox popup and twice the browser process's main-thread work. On a 2-core machine
 * those take the CPU from the page while Lighthouse records the page's task times (wall times, which it multiplies
 * by 4), so its scores there measure the browser as much as the page.
 */
export const LIGHTHOUSE_BROWSERS = {
  'headless-shell': { path: '/usr/bin/chromium-headless-shell', debianPackage: 'chromium-headless-shell' },
  chromium: { path: CHROMIUM, debianPackage: 'chromium' },
};

/** Lighthouse's default CPU slowdown of the mobile preset. */
export const DEFAULT_CPU_SLOWDOWN = 4;

/**
 * Lighthouse 12, mobile preset, in `browserPath`; `cpuSlowdown` replaces the preset's 4x CPU multiplier only when
 * given. Scores 0-100, LCP in ms.
 */
export async function lighthouse(url, { browserPath = CHROMIUM, cpuSlowdown = DEFAULT_CPU_SLOWDOWN } = {}) {
  const { default: runLighthouse } = await import('lighthouse');
  const { throttling } = await import('lighthouse/core/config/constants.js');
  const chromeLauncher = await import('chrome-launcher');
  const config =
    cpuSlowdown === DEFAULT_CPU_SLOWDOWN
      ? undefined
      : { extends: 'lighthouse:default', settings: { throttling: { ...throttling.mobileSlow4G, cpuSlowdownMultiplier: cpuSlowdown } } };
  const chrome = await chromeLauncher.launch({ chromePath: browserPath, chromeFlags: ['--headless', ...CHROMIUM_FLAGS], logLevel: 'silent' });
  try {
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error(`lighthouse ${url}: over 150 s`)), 150_000).unref());
    const result = await Promise.race([
      runLighthouse(
        url,
        {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
        },
        config,
      ),
      timeout,
    ]);
    const { categories, audits } = result.lhr;
    const score = (id) => (categories[id]?.score === null || categories[id]?.score === undefined ? null : Math.round(categories[id].score * 100));
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      lcpMs: audits['largest-contentful-paint']?.numericValue ?? null,
      fcpMs: audits['first-contentful-paint']?.numericValue ?? null,
      tbtMs: audits['total-blocking-time']?.numericValue ?? null,
      cls: audits['cumulative-layout-shift']?.numericValue ?? null,
      // Lighthouse's own measure of how fast the machine was during the run (higher is faster; it multiplies the
      // page's observed task times, wall times, by the CPU slowdown whatever this is, so a busy moment inflates TBT).
      benchmarkIndex: result.lhr.environment?.benchmarkIndex ?? null,
      cpuSlowdown: result.lhr.configSettings.throttling.cpuSlowdownMultiplier,
      browser: result.lhr.environment?.hostUserAgent ?? null,
      failedAudits: Object.values(audits)
        .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode === 'binary')
        .map((a) => a.id),
      runtimeError: result.lhr.runtimeError?.message ?? null,
    };
  } finally {
    await chrome.kill();
  }
}
