import type { FastifyInstance } from 'fastify';

const HOUR_MS = 3_600_000;
const STAMP_EVERY_MS = 60_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Runs `task` once the app is ready (awaited when `awaitFirst`, so the app starts with it done) and then every `ms`
 * until it closes; a failure is logged and the task tried again next time.
 */
function repeat(app: FastifyInstance, ms: number, task: () => Promise<unknown>, failure: { level: 'warn' | 'error'; message: string }, awaitFirst: boolean) {
  let timer: NodeJS.Timeout | undefined;
  const run = () => task().catch((err: unknown) => app.log[failure.level]({ err }, failure.message));
  app.addHook('onReady', async () => {
    if (awaitFirst) await run();
    else void run();
    timer = setInterval(() => void run(), ms);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}

/**
 * At least one checkpoint a day while the chain grows (the others come with every AUDIT_CHECKPOINT_EVERY entries), and
 * with TSA_URL each checkpoint time-stamped by that authority soon after it is signed.
 */
export function scheduleCheckpoints(app: FastifyInstance) {
  const tsaUrl = app.config.TSA_URL;
  if (tsaUrl) repeat(app, STAMP_EVERY_MS, () => app.audit.stampCheckpoints(tsaUrl), { level: 'warn', message: 'audit checkpoint time-stamp failed; tried again later' }, false);
  const daily = async () => {
    const newest = await app.audit.newestCheckpoint();
    if (!newest || Date.now() - newest.at.getTime() >= DAY_MS) await app.audit.checkpoint();
  };
  repeat(app, HOUR_MS, daily, { level: 'error', message: 'audit checkpoint failed' }, true);
}
