import type { FastifyBaseLogger } from 'fastify';

/** How long one dependency may take to answer /ready before it counts as down. */
const CHECK_TIMEOUT_MS = 2000;

/**
 * `failing`: the part answers but does not do its work (mail: mails wait for a retry); `full` and `not writable`: the
 * folders of the data directory where files are written (media/disk-check.ts).
 */
export type CheckResult = 'ok' | 'not configured' | 'unreachable' | 'failing' | 'full' | 'not writable';
/** Mail `failing` is not here: it degrades the answer (200) instead of failing it. */
export const PASSING: readonly CheckResult[] = ['ok', 'not configured', 'failing'];

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * A probe of one part of the site for /ready, by name. What each part answered the last probe is kept: a part going
 * down is logged once, and once again when it is back, not at every probe (a load balancer asks every second or so,
 * and each line of an outage said the same).
 */
export function readyCheck(log: FastifyBaseLogger) {
  const lastState = new Map<string, CheckResult>();
  return async function check(name: string, probe: () => Promise<unknown>): Promise<CheckResult> {
    let state: CheckResult = 'ok';
    let failure: unknown;
    try {
      await withTimeout(probe(), CHECK_TIMEOUT_MS);
    } catch (err) {
      state = (err as { readyState?: CheckResult }).readyState ?? 'unreachable';
      failure = err;
    }
    const before = lastState.get(name);
    lastState.set(name, state);
    if (state !== 'ok' && before !== state) log.warn({ err: failure }, `ready check: ${name} ${state}`);
    if (state === 'ok' && before !== undefined && before !== 'ok') log.warn(`ready check: ${name} answers again`);
    return state;
  };
}
