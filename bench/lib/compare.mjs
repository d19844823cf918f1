// `--compare a.json b.json`: every figure the two runs share, side by side, with b/a.
import { readFileSync } from 'node:fs';
import { table } from './stats.mjs';

function flatten(value, prefix = '', out = {}) {
  if (typeof value === 'number') out[prefix] = value;
  else if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${key}` : key, out);
  }
  return out;
}

const INTERESTING = /(requestsPerSec|p50Ms|p99Ms|medianMs|peakRssBytes|ratioToNginx|ratioToFloor|non2xx|socketErrors|\.br$|\.gzip$|performance|accessibility|bestPractices|seo|lcpMs|seconds|cpuMs|longestTaskMs|tasksOver5Ms|bytes|requests)$/;

export function compareFiles(fileA, fileB) {
  const a = JSON.parse(readFileSync(fileA, 'utf8'));
  const b = JSON.parse(readFileSync(fileB, 'utf8'));
  const fa = flatten({ seed: a.seed, queries: a.queries, http: a.http, web: a.web });
  const fb = flatten({ seed: b.seed, queries: b.queries, http: b.http, web: b.web });
  const keys = Object.keys(fa).filter((k) => k in fb && INTERESTING.test(k) && !k.includes('.files.'));
  const show = (v) => (Math.abs(v) >= 100 ? Math.round(v).toLocaleString('en') : Number(v.toFixed(3)).toString());
  console.log(`a: ${fileA} (${a.startedAt}, ${a.driver}, load ${a.machine?.loadAvg1m?.toFixed(1)})`);
  console.log(`b: ${fileB} (${b.startedAt}, ${b.driver}, load ${b.machine?.loadAvg1m?.toFixed(1)})\n`);
  // Lighthouse's scores depend on the browser and CPU multiplier it ran with, so differing settings are named.
  const lighthouseSettings = (r) => JSON.stringify(r.web?.lighthouseSettings ?? { browser: 'chromium', cpuSlowdown: 4 });
  if (a.web && b.web && lighthouseSettings(a) !== lighthouseSettings(b)) {
    console.log(`Lighthouse ran differently: a ${lighthouseSettings(a)}, b ${lighthouseSettings(b)}\n`);
  }
  console.log(table(['figure', 'a', 'b', 'b/a'], keys.map((k) => [k, show(fa[k]), show(fb[k]), fa[k] ? `${(fb[k] / fa[k]).toFixed(2)}` : null])));
  if (!keys.length) console.log('The two files share no figures.');
}
