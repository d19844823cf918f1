import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import type { Database } from '../src/db';

/** An app with a counting public route and a write route, on `database`. */
export async function appWithProbe(
  database: Database,
  env: Record<string, string> = {},
  beforeReady?: (app: FastifyInstance) => void,
  /** Pino options (e.g. a stream that keeps the lines); no logger by default. */
  logger: object | false = false,
) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cache-test-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', JWT_SECRET: 'y'.repeat(40), ...env });
  const app = await buildApp({ config, database, runJobs: false, logger });
  const state = { produced: 0, value: 'first', duringProduce: null as null | (() => void) };
  app.get('/api/v1.0.0/__probe', async (request, reply) =>
    app.publicCache.serve(request, reply, async () => {
      state.produced++;
      state.duringProduce?.();
      return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ value: state.value, pad: 'x'.repeat(2000) }) };
    }),
  );
  app.post('/api/v1.0.0/__probe', async () => {
    state.value = 'second';
    app.contentChanged({ area: 'records' });
    return { ok: true };
  });
  beforeReady?.(app);
  await app.ready();
  return { app, state };
}
