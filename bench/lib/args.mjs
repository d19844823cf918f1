// Command-line options of bench/run.mjs (see --help there).
import { DEFAULT_CPU_SLOWDOWN, LIGHTHOUSE_BROWSERS } from './web.mjs';

const PARTS = ['http', 'queries', 'search', 'stats', 'footprint', 'web', 'testimony'];
/**
 * Parts run only when asked for with --only (export streams the whole collection; cluster needs PostgreSQL and Redis;
 * duplicates makes people of its own, a million with --pg).
 */
const OPTIONAL_PARTS = ['export', 'cluster', 'duplicates', 'evidence', 'mirror', 'imports'];
const LIGHTHOUSE_BROWSER_NAMES = Object.keys(LIGHTHOUSE_BROWSERS);
export const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/test';

function positiveNumber(name, value) {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number (got ${value})`);
  return n;
}

export function parseArgs(argv) {
  const opts = {
    only: PARTS,
    sizes: null,
    pg: false,
    pgUrl: DEFAULT_PG_URL,
    pgDatabase: null,
    httpAt: 'largest',
    duration: 10,
    soak: 60,
    connections: 32,
    rounds: 3,
    lighthouseRuns: 5,
    lighthouseBrowser: 'headless-shell',
    cpuSlowdown: DEFAULT_CPU_SLOWDOWN,
    pageLoadRuns: 7,
    baseline: null,
    runs: 30,
    build: true,
    maxMinutes: 30,
    out: null,
    keep: false,
    compare: null,
    help: false,
    clusterSeconds: 30,
    dupScanSeconds: 60,
    evidenceMb: 200,
    redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [key, value] = arg.replace(/^--/, '').split(/=(.*)/s);
    switch (key) {
      case 'only':
        opts.only = value.split(',').map((s) => s.trim()).filter(Boolean);
        for (const part of opts.only) {
          if (![...PARTS, ...OPTIONAL_PARTS].includes(part)) throw new Error(`--only: unknown part "${part}" (parts: ${[...PARTS, ...OPTIONAL_PARTS].join(', ')})`);
        }
        break;
      case 'sizes':
        opts.sizes = value.split(',').map((s) => Math.round(positiveNumber('sizes', s.replace(/_/g, '').replace(/k$/i, '000').replace(/m$/i, '000000'))));
        break;
      case 'pg':
        opts.pg = true;
        if (value) opts.pgUrl = value;
        break;
      case 'pg-database':
        // Also a database name in a URL: quoted as an identifier, so letters, digits and _ only.
        if (!/^[a-z_][a-z0-9_]*$/.test(value ?? '')) throw new Error('--pg-database must be a database name of lower-case letters, digits and _');
        opts.pg = true;
        opts.pgDatabase = value;
        break;
      case 'http-at':
        if (!['largest', 'all'].includes(value)) throw new Error('--http-at must be largest or all');
        opts.httpAt = value;
        break;
      case 'duration':
        opts.duration = Math.min(60, Math.round(positiveNumber(key, value)));
        break;
      case 'cluster-seconds':
        opts.clusterSeconds = Math.min(300, Math.round(positiveNumber(key, value)));
        break;
      case 'evidence-mb':
        opts.evidenceMb = Math.round(positiveNumber(key, value));
        break;
      case 'dup-scan-seconds':
        opts.dupScanSeconds = Math.min(3600, Math.round(positiveNumber(key, value)));
        break;
      case 'redis':
        if (!/^rediss?:\/\//.test(value ?? '')) throw new Error('--redis must be a redis:// URL');
        opts.redisUrl = value;
        break;
      case 'soak':
        opts.soak = Math.min(300, Math.round(positiveNumber(key, value)));
        break;
      case 'connections':
        opts.connections = Math.round(positiveNumber(key, value));
        break;
      case 'rounds':
        opts.rounds = Math.round(positiveNumber(key, value));
        break;
      case 'lighthouse-runs':
        opts.lighthouseRuns = Math.round(positiveNumber(key, value));
        break;
      case 'lighthouse-browser':
        if (!LIGHTHOUSE_BROWSER_NAMES.includes(value)) throw new Error(`--lighthouse-browser must be one of ${LIGHTHOUSE_BROWSER_NAMES.join(', ')}`);
        opts.lighthouseBrowser = value;
        break;
      case 'cpu-slowdown':
        opts.cpuSlowdown = positiveNumber(key, value);
        break;
      case 'page-load-runs':
        opts.pageLoadRuns = Math.round(positiveNumber(key, value));
        break;
      case 'baseline':
        if (!value) throw new Error('--baseline needs the folder of another checkout with a build');
        opts.baseline = value;
        break;
      case 'runs':
        opts.runs = Math.round(positiveNumber(key, value));
        break;
      case 'no-build':
        opts.build = false;
        break;
      case 'max-minutes':
        opts.maxMinutes = positiveNumber(key, value);
        break;
      case 'out':
        opts.out = value;
        break;
      case 'keep':
        opts.keep = true;
        break;
      case 'compare':
        opts.compare = [argv[i + 1], argv[i + 2]];
        if (!opts.compare[0] || !opts.compare[1]) throw new Error('--compare needs two result files');
        i += 2;
        break;
      case 'help':
      case 'h':
        opts.help = true;
        break;
      default:
        throw new Error(`Unknown option ${arg} (see --help)`);
    }
  }
  opts.sizes ??= opts.pg ? [1000, 100_000, 1_000_000] : [1000, 100_000];
  opts.sizes.sort((a, b) => a - b);
  return opts;
}
