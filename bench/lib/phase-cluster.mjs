// The cluster part: the site as it runs at scale, on one machine. Server processes (the production
// bundle) share a PostgreSQL database and Redis behind a small proxy that behaves like the compose file's Caddy
// (balancer.mjs), under mixed load (mixed-load.mjs): one process, then two, then two restarted one after the other
// during the load (a rolling restart), which must fail no request.
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { startBalancer } from './balancer.mjs';
import { createPgDatabase, dbTask, dropPgDatabase } from './data.mjs';
import { MIX, runMixedLoad } from './mixed-load.mjs';
import { freePort, stop, track, waitForHttp } from './proc.mjs';
import { signedInReader } from './reader.mjs';
import { ROOT, SITE_NODE_FLAGS } from './site.mjs';
import { fmt, table } from './stats.mjs';

function startServer({ port, dataDir, databaseUrl, redisUrl, logFile, prefix }) {
  const child = track(
    spawn(process.execPath, [...SITE_NODE_FLAGS, 'apps/server/dist/main.js'], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        MAIL_OUTBOX: 'true',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: 'http://localhost',
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        RATE_LIMIT_PREFIX: prefix,
        SAMPLE_DATA: 'false',
        CAPTURE_ENABLED: 'false',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const log = createWriteStream(logFile, { flags: 'a' });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  return { port, child, url: `http://127.0.0.1:${port}` };
}

export async function runCluster({ work, pgUrl, redisUrl, durationS, connections }) {
  // The bundle of this checkout as it is now: the processes run what `npm start` runs.
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const name = `bench_cluster_${Date.now().toString(36)}`;
  const databaseUrl = await createPgDatabase(pgUrl, name);
  const dataDir = path.join(work, 'cluster-data');
  const logFile = path.join(work, 'cluster.log');
  const servers = [];
  const start = async (port) => {
    const server = startServer({ port, dataDir, databaseUrl, redisUrl, logFile, prefix: `${name}:` });
    await waitForHttp(`${server.url}/ready`, { child: server.child, timeoutMs: 90_000 });
    return server;
  };
  try {
    const seeded = await dbTask({ action: 'seed', size: 1000, dataDir, databaseUrl, mediaEvery: 20 });
    console.log(`Seeded ${fmt.n(seeded.total)} records`);
    const ports = [await freePort(), await freePort()];
    servers[0] = await start(ports[0]);
    const authorization = await signedInReader({ site: servers[0], dataDir, databaseUrl });
    const ids = (await (await fetch(`${servers[0].url}/api/v1.0.0/victims?limit=20`)).json()).map((r) => r._id);
    const results = {};

    const scenario = async (label, upstreams, during) => {
      const balancer = await startBalancer({ upstreams });
      try {
        console.log(`${label}: ${durationS} s of mixed load at ${connections} connections...`);
        const figures = await runMixedLoad({ url: balancer.url, durationS, connections, authorization, ids, during });
        figures.proxyRetries = balancer.stats.retried;
        results[label] = figures;
        return figures;
      } finally {
        await balancer.close();
      }
    };

    await scenario('one process', [ports[0]]);
    servers[1] = await start(ports[1]);
    await scenario('two processes', ports);

    // Each process in turn: SIGTERM (it finishes what it has), wait for its exit, start it again on its port.
    const restarts = [];
    const restart = async (i) => {
      const t0 = Date.now();
      await stop(servers[i].child, 15_000);
      const stoppedMs = Date.now() - t0;
      servers[i] = await start(ports[i]);
      restarts.push({ process: i + 1, drainedAndExitedMs: stoppedMs, backInMs: Date.now() - t0 });
    };
    const pending = [];
    const at = [0.25, 0.6].map((f) => f * durationS * 1000);
    await scenario('two, rolling restart', ports, async (elapsed) => {
      at.forEach((when, i) => {
        if (elapsed >= when && !pending[i]) pending[i] = (pending[i - 1] ?? Promise.resolve()).then(() => restart(i));
      });
    });
    await Promise.all(pending);
    results['two, rolling restart'].restarts = restarts;

    const rows = Object.entries(results).map(([label, r]) => [
      label,
      fmt.n(r.requests),
      fmt.n(r.requestsPerS),
      fmt.ms(r.p50Ms),
      fmt.ms(r.p99Ms),
      fmt.ms(r.maxMs),
      fmt.n(r.failed),
      fmt.n(r.proxyRetries),
    ]);
    console.log(`\nCluster: mixed load (${MIX.map((m) => `${Math.round(m.share * 100)} % ${m.name}`).join(', ')}), ${connections} connections, ${durationS} s each, behind a retrying proxy`);
    console.log(table(['run', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'failed', 'proxy retries'], rows));
    for (const r of restarts) console.log(`  process ${r.process}: drained and exited in ${fmt.n(r.drainedAndExitedMs)} ms, serving again after ${fmt.n(r.backInMs)} ms`);
    for (const [label, r] of Object.entries(results)) for (const failure of r.failures) console.log(`  ${label} failure: ${failure}`);
    return results;
  } finally {
    await Promise.all(servers.filter(Boolean).map((s) => stop(s.child, 15_000)));
    await dropPgDatabase(pgUrl, databaseUrl).catch((err) => console.error(`Could not drop ${databaseUrl}: ${err.message}`));
  }
}
