// The site under test: the production entry point (the bundle apps/server/dist/main.js, built here when missing),
// on its own port and data folder.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, createWriteStream, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SITE_NODE_FLAGS, withSiteEnvironment } from '../../scripts/node-flags.mjs';
import { freePort, stop, track, waitForHttp } from './proc.mjs';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * A temporary work folder for a site's data. Run as root, the site's embedded database runs as the user postgres,
 * which must be able to enter it (mkdtemp makes it 0700).
 */
export function siteWorkDir(prefix) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}

/** The Node.js flags the site runs with in production, from their one place (see scripts/node-flags.mjs). */
export { SITE_NODE_FLAGS };

/** A token of this bench run for the site's /metrics. */
const METRICS_TOKEN = randomBytes(24).toString('base64url');

/** Checkouts whose server this bench run has bundled: once per run, so a site never runs a bundle older than its code. */
const bundled = new Set();

/**
 * Starts the site; resolves once /health answers. `databaseUrl` selects a PostgreSQL server, otherwise the site runs its
 * embedded one in dataDir.
 * `root`: the checkout whose build runs (another one serves as a baseline, see --baseline).
 */
export async function startSite({ dataDir, databaseUrl, logFile, root = ROOT }) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  if (!bundled.has(root)) {
    execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
    bundled.add(root);
  }
  const child = track(
    spawn(process.execPath, [...SITE_NODE_FLAGS, 'apps/server/dist/main.js'], {
      cwd: root,
      env: withSiteEnvironment({
        ...process.env,
        NODE_ENV: 'production',
        MAIL_OUTBOX: 'true',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://localhost:${port}`,
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl ?? '',
        REDIS_URL: '',
        SAMPLE_DATA: 'false',
        LOG_LEVEL: 'warn',
        // The bench reads the response cache's size from /metrics (footprint).
        METRICS_TOKEN,
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const log = createWriteStream(logFile, { flags: 'a' });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  await waitForHttp(`${url}/health`, { child, timeoutMs: 90_000 });
  return { url, port, pid: child.pid, child, stop: () => stop(child), metricsToken: METRICS_TOKEN };
}
