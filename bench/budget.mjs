#!/usr/bin/env node
// Budget check for CI: the compressed (brotli) JS+CSS the home page needs must stay under --max-kb (default 100).
// Builds the web app when there is no dist (or with --build), loads / in Debian's chromium through the real server and
// counts every .js/.css it fetches. Prints the figure either way; exits 1 over budget, 2 when it cannot measure.
//   node bench/budget.mjs [--max-kb=100] [--build]
import { rmSync } from 'node:fs';
import path from 'node:path';
import { killAll } from './lib/proc.mjs';
import { siteWorkDir, startSite } from './lib/site.mjs';
import { browserAssets, buildWeb, hasBuild, staticHomeAssets, weigh } from './lib/web.mjs';

let maxKb = 100;
let forceBuild = false;
for (const arg of process.argv.slice(2)) {
  if (arg.startsWith('--max-kb=')) maxKb = Number(arg.slice('--max-kb='.length));
  else if (arg === '--build') forceBuild = true;
  else {
    console.error(`Unknown option ${arg}. Usage: node bench/budget.mjs [--max-kb=100] [--build]`);
    process.exit(2);
  }
}
if (!Number.isFinite(maxKb) || maxKb <= 0) {
  console.error('--max-kb must be a positive number');
  process.exit(2);
}

async function measure() {
  if (forceBuild || !hasBuild()) {
    console.log('Building the web app (npm run build)...');
    await buildWeb();
  }
  const work = siteWorkDir('budget-');
  try {
    const site = await startSite({ dataDir: path.join(work, 'data'), logFile: path.join(work, 'site.log') });
    try {
      const loaded = await browserAssets(site.url, '/');
      return { how: 'loaded by chromium on /', ...weigh(loaded.map((a) => a.file)) };
    } finally {
      await site.stop();
    }
  } catch (err) {
    // Without a browser, index.html's entry, stylesheets and preloads are a lower bound (the route's lazy chunk is missing).
    console.warn(`Could not load the page in chromium (${err.message.split('\n')[0]}); counting index.html's own assets only.`);
    return { how: "index.html entry+preloads only (lower bound)", ...weigh(staticHomeAssets()) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

try {
  const home = await measure();
  const kb = home.br / 1024;
  for (const f of home.files) console.log(`  ${f.file}  ${(f.br / 1024).toFixed(1)} KB br, ${(f.gzip / 1024).toFixed(1)} KB gzip`);
  console.log(
    `Home page JS+CSS (${home.how}): ${kb.toFixed(1)} KB brotli, ${(home.gzip / 1024).toFixed(1)} KB gzip, ${(home.raw / 1024).toFixed(1)} KB raw; budget ${maxKb} KB brotli`,
  );
  if (kb > maxKb) {
    console.log(`OVER BUDGET by ${(kb - maxKb).toFixed(1)} KB`);
    process.exitCode = 1;
  } else {
    console.log('Within budget');
  }
} catch (err) {
  console.error(`budget: ${err.stack ?? err}`);
  process.exitCode = 2;
} finally {
  killAll();
}
