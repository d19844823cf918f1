// Mixed load for the cluster part: `connections` clients in a loop for `durationS`, each request drawn from a fixed
// mix of anonymous cached reads, anonymous uncached reads (another page each time), signed-in reads, server-rendered
// pages and writes (record creations, which clear every process's cache). A failure is any answer other than 2xx/3xx,
// or a request that got no answer.
import http from 'node:http';
import { percentile } from './stats.mjs';

export const MIX = [
  { name: 'cached read', share: 0.55 },
  { name: 'uncached read', share: 0.15 },
  { name: 'signed-in read', share: 0.15 },
  { name: 'page', share: 0.1 },
  { name: 'write', share: 0.05 },
];

function requestFor(kind, { authorization, ids }) {
  switch (kind) {
    case 'cached read':
      return Math.random() < 0.5 ? { path: '/api/v1.0.0/victims?limit=20' } : { path: `/api/v1.0.0/victims/${ids[Math.floor(Math.random() * Math.min(ids.length, 20))]}` };
    case 'uncached read':
      return { path: `/api/v1.0.0/victims?limit=20&offset=${1 + Math.floor(Math.random() * 900)}` };
    case 'signed-in read':
      return { path: '/api/v1.0.0/victims?limit=20', headers: { authorization } };
    case 'page':
      return { path: '/victims' };
    default:
      return {
        path: '/api/v1.0.0/victims',
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Bench cluster record', subtitle: 'Benchmark data - not real', description: 'Written by the cluster bench.' }),
      };
  }
}

function pickKind() {
  let r = Math.random();
  for (const { name, share } of MIX) if ((r -= share) < 0) return name;
  return MIX[0].name;
}

/** Runs the load; `during(elapsedMs)` is polled every 100 ms (the rolling restart hooks in there). */
export async function runMixedLoad({ url, durationS, connections, authorization, ids, during }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies = [];
  const failures = [];
  const perKind = Object.fromEntries(MIX.map(({ name }) => [name, 0]));
  const startedAt = Date.now();
  const endAt = startedAt + durationS * 1000;
  const { hostname, port } = new URL(url);

  const once = (kind) =>
    new Promise((resolve) => {
      const spec = requestFor(kind, { authorization, ids });
      const t0 = performance.now();
      const req = http.request({ host: hostname, port, path: spec.path, method: spec.method ?? 'GET', headers: { 'accept-encoding': 'gzip', ...spec.headers }, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - t0);
          perKind[kind]++;
          if (res.statusCode >= 400) failures.push(`${kind}: HTTP ${res.statusCode} at ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
          resolve();
        });
      });
      req.setTimeout(30_000, () => req.destroy(new Error('no answer within 30 s')));
      req.on('error', (err) => {
        failures.push(`${kind}: ${err.code ?? err.message} at ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
        resolve();
      });
      req.end(spec.body);
    });

  const client = async () => {
    while (Date.now() < endAt) await once(pickKind());
  };
  const watcher = during
    ? (async () => {
        while (Date.now() < endAt) {
          await during(Date.now() - startedAt);
          await new Promise((r) => setTimeout(r, 100));
        }
      })()
    : Promise.resolve();
  await Promise.all([...Array.from({ length: connections }, client), watcher]);
  agent.destroy();
  const seconds = (Date.now() - startedAt) / 1000;
  return {
    requests: latencies.length + failures.filter((f) => !/HTTP/.test(f)).length,
    requestsPerS: latencies.length / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies.length ? Math.max(...latencies) : null,
    failed: failures.length,
    failures: failures.slice(0, 20),
    perKind,
  };
}
