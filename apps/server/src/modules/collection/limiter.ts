import { availableParallelism } from 'node:os';
import type { Config } from '../../config';
import { AppError } from '../../errors';

/**
 * At most `concurrency` searches computed at once by this server; more wait for a turn, up to `waitMs`, in the order
 * they came, and at most `queueMax` of them: the rest are refused at once. A burst of unique searches (a crawler, a
 * shared link with varied filters) then queues behind a few, and the database keeps connections and CPU for the reads
 * that are not searches (record pages, lists), while cached answers never reach it.
 */
export class SearchLimiter {
  private running = 0;
  private readonly waiting: { admit: () => void; timer: NodeJS.Timeout }[] = [];
  /** Searches refused since start (for /metrics and tests). */
  refused = 0;

  constructor(
    readonly concurrency: number,
    readonly waitMs: number,
    readonly queueMax = concurrency * 16,
  ) {}

  /** A turn: its release, or null when none came within waitMs (or too many wait already). */
  acquire(): Promise<(() => void) | null> {
    if (this.running < this.concurrency) {
      this.running++;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.queueMax) {
      this.refused++;
      return Promise.resolve(null);
    }
    return new Promise((resolve) => {
      const turn = {
        admit: () => {
          clearTimeout(turn.timer);
          resolve(this.releaser());
        },
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(turn), 1);
          this.refused++;
          resolve(null);
        }, this.waitMs),
      };
      this.waiting.push(turn);
    });
  }

  /** Runs `task` in a turn; `busy()` answers instead when no turn came. */
  async run<T>(task: () => Promise<T>, busy: () => T): Promise<T> {
    const release = await this.acquire();
    if (!release) return busy();
    try {
      return await task();
    } finally {
      release();
    }
  }

  /** Searches being computed, and waiting. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The turn passes to the next in line without being counted free in between.
      if (next) next.admit();
      else this.running--;
    };
  }
}

const limiters = new WeakMap<Config, SearchLimiter>();

/**
 * The limiter of this server (one per configuration, so the search and the statistics with words share it):
 * SEARCH_CONCURRENCY searches at once (default: defaultSearchConcurrency), waiting up to SEARCH_QUEUE_MS.
 */
export function searchLimiterOf(config: Config): SearchLimiter {
  let limiter = limiters.get(config);
  if (!limiter) limiters.set(config, (limiter = new SearchLimiter(config.SEARCH_CONCURRENCY ?? defaultSearchConcurrency(), config.SEARCH_QUEUE_MS)));
  return limiter;
}

/**
 * One search more than the CPUs: a search alternates between this process (building its statement, its records'
 * JSON, snippets) and the database, so with as many searches as cores one core waited while each search was in the
 * other; the turn more kept both busy, and a burst of unique searches was answered 9-11 % faster, its p99 lower
 * (docs/performance.md). Two more gained nothing and lengthened the tail.
 */
export function defaultSearchConcurrency(): number {
  return availableParallelism() + 1;
}

/**
 * The answer to a search that got no turn: 503, to be asked again in a second. Not logged: a burst refuses hundreds a
 * second, and a line with a stack for each cost more than the refusal (/metrics counts them: http_requests_total by
 * route and status 503).
 */
export function searchesBusy(): AppError {
  const busy = new AppError(503, { message: 'Too many searches at once; try again in a moment' }, { 'retry-after': '1' });
  busy.quiet = true;
  return busy;
}

/** Runs a search in a turn of this server's limiter, or refuses it (503 with Retry-After). */
export function inSearchTurn<T>(config: Config, search: () => Promise<T>): Promise<T> {
  return searchLimiterOf(config).run(search, () => {
    throw searchesBusy();
  });
}
