// Raw HTTP for the bench: bytes exactly as sent (no automatic decompression), and sequential latency series.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { median, percentile } from './stats.mjs';

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

export function get(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(url, { agent, headers: { 'accept-encoding': 'gzip', ...headers } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), ms: performance.now() - started }));
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`${url}: no answer within 30 s`)));
    req.on('error', reject);
  });
}

let bust = 0;
/**
 * A list `url` the response cache has not seen: the page shifted by one more record each time (`offset`), the same
 * amount of work. The cache keys on the parameters that change the answer, so an unknown one (`_b=`) no longer
 * misses; a single record has no such parameter, and null says its miss cannot be measured this way.
 */
export function cacheBusted(url) {
  const parsed = new URL(url);
  if (!parsed.searchParams.has('limit')) return null;
  bust += 1;
  parsed.searchParams.set('offset', String(Number(parsed.searchParams.get('offset') ?? 0) + bust));
  return parsed.toString();
}

/**
 * Median latency of `runs` sequential requests (after one warm-up), each uncached: either a unique URL (the
 * anonymous miss path: query, serialise, ETag, compression) or a signed-in reader's session, `authorization` (the
 * signed-in path: the reader's account, query and serialise, never cached, compressed per request). Bounded by
 * `budgetMs`.
 */
export async function timeUncached(url, { runs = 30, mode = 'bust', authorization = null, budgetMs = 4000 } = {}) {
  if (mode === 'bust' && !cacheBusted(url)) return null;
  const request = () => (mode === 'bust' ? get(cacheBusted(url)) : get(url, { authorization }));
  const first = await request();
  const ms = [];
  const started = performance.now();
  let status = first.status;
  for (let i = 0; i < runs && (i < 5 || performance.now() - started < budgetMs); i++) {
    const res = await request();
    if (res.status !== 200) status = res.status;
    ms.push(res.ms);
  }
  return { medianMs: median(ms), p90Ms: percentile(ms, 90), runs: ms.length, status, bytes: first.body.length };
}
