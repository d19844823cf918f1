import type { Redis } from 'ioredis';
import { httpError } from '../../errors';

/**
 * Fixed-window counters for the account endpoints (sign-in failures, sign-up, e-mails sent). One interface, two
 * stores: memory for a single process, Redis when several server processes must enforce one limit together.
 */

export interface WindowCount {
  count: number;
  /** Milliseconds until the window ends and the count starts again from zero. */
  resetInMs: number;
}

export interface CounterStore {
  /** Adds one to `key`, starting a window of `windowMs` if none is open, and returns the new count. */
  increment(key: string, windowMs: number): Promise<WindowCount>;
  /** The open window's count, or null when there is none. */
  get(key: string): Promise<WindowCount | null>;
  reset(key: string): Promise<void>;
}

export class MemoryCounterStore implements CounterStore {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private lastSweep = Date.now();

  constructor(private readonly now: () => number = Date.now) {}

  async increment(key: string, windowMs: number): Promise<WindowCount> {
    const now = this.now();
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    return { count: window.count, resetInMs: window.endsAt - now };
  }

  async get(key: string): Promise<WindowCount | null> {
    const now = this.now();
    const window = this.windows.get(key);
    if (!window || window.endsAt <= now) return null;
    return { count: window.count, resetInMs: window.endsAt - now };
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  /** Drops ended windows now and then, so counters of one-off keys (IPs, e-mails) do not pile up. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
  }
}

export class RedisCounterStore implements CounterStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async increment(key: string, windowMs: number): Promise<WindowCount> {
    const k = this.prefix + key;
    // SET NX opens the window with its expiry; INCR keeps that expiry. Atomic as one MULTI across processes.
    const results = await this.redis.multi().set(k, '0', 'PX', windowMs, 'NX').incr(k).pttl(k).exec();
    if (!results) throw new Error('rate limit: Redis transaction aborted');
    for (const [err] of results) if (err) throw err;
    const count = Number(results[1]![1]);
    const ttl = Number(results[2]![1]);
    return { count, resetInMs: ttl > 0 ? ttl : windowMs };
  }

  async get(key: string): Promise<WindowCount | null> {
    const k = this.prefix + key;
    const results = await this.redis.multi().get(k).pttl(k).exec();
    if (!results) return null;
    const value = results[0]![1] as string | null;
    const ttl = Number(results[1]![1]);
    if (value === null || ttl <= 0) return null;
    return { count: Number(value), resetInMs: ttl };
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
}

export interface LimitRule {
  /** Allowed events per window; the next one is refused with 429. */
  max: number;
  windowMs: number;
}

/** One named limit (e.g. "sign-in failures per e-mail") over a store. */
export class RateLimit {
  constructor(
    private readonly store: CounterStore,
    readonly name: string,
    readonly rule: LimitRule,
  ) {}

  private key(subject: string): string {
    return `${this.name}:${subject}`;
  }

  /** Seconds until `subject` may try again, or 0 when it is under the limit. Counts nothing. */
  async blockedFor(subject: string): Promise<number> {
    const window = await this.store.get(this.key(subject));
    return window && window.count >= this.rule.max ? Math.ceil(window.resetInMs / 1000) : 0;
  }

  /** Counts one event (a failure, a request). */
  async record(subject: string): Promise<WindowCount> {
    return this.store.increment(this.key(subject), this.rule.windowMs);
  }

  /** Counts one request and throws 429 (with Retry-After) when it goes over the limit. */
  async consume(subject: string): Promise<void> {
    const window = await this.record(subject);
    if (window.count > this.rule.max) throw httpError.tooMany(window.resetInMs / 1000);
  }

  async reset(subject: string): Promise<void> {
    await this.store.reset(this.key(subject));
  }
}

/** Throws 429 with the longest wait when any of the limits blocks its subject. */
export async function assertNotBlocked(checks: [RateLimit, string][]): Promise<void> {
  const waits = await Promise.all(checks.map(([limit, subject]) => limit.blockedFor(subject)));
  const wait = Math.max(0, ...waits);
  if (wait > 0) throw httpError.tooMany(wait);
}

/**
 * Redis while it answers; while it does not (down, restarting), this process's own counters, so sign-in keeps working
 * with limits held per process instead of failing every attempt. One warning when Redis is lost, one when it is back.
 */
class FallbackCounterStore implements CounterStore {
  private degraded = false;

  constructor(
    private readonly shared: CounterStore,
    private readonly local: CounterStore,
    /** False while the Redis client is between connections: no command is tried (it would wait for a reconnect). */
    private readonly sharedIsUp: () => boolean,
    private readonly warn: (message: string, err?: unknown) => void,
  ) {}

  private async use<T>(operation: (store: CounterStore) => Promise<T>): Promise<T> {
    if (this.sharedIsUp()) {
      try {
        const result = await operation(this.shared);
        if (this.degraded) {
          this.degraded = false;
          this.warn('rate limits: Redis answers again, limits are shared by every process again');
        }
        return result;
      } catch (err) {
        this.degrade(err);
      }
    } else {
      this.degrade();
    }
    return operation(this.local);
  }

  private degrade(err?: unknown) {
    if (this.degraded) return;
    this.degraded = true;
    this.warn('rate limits: Redis unreachable, each process counts on its own until it is back', err);
  }

  increment(key: string, windowMs: number) {
    return this.use((store) => store.increment(key, windowMs));
  }

  get(key: string) {
    return this.use((store) => store.get(key));
  }

  reset(key: string) {
    return this.use((store) => store.reset(key));
  }
}

export function counterStore(redis: Redis | null, prefix: string, warn: (message: string, err?: unknown) => void = () => {}): CounterStore {
  if (!redis) return new MemoryCounterStore();
  return new FallbackCounterStore(new RedisCounterStore(redis, prefix), new MemoryCounterStore(), () => redis.status === 'ready', warn);
}
