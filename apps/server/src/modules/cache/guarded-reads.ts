/**
 * Generation guard + merged concurrent reads: the one implementation behind every cache of reads (the response cache,
 * the serialised records and the list positions).
 *
 * - A change starts a new generation (`advance`). A read takes the generation when it starts; what it read is kept
 *   only if no change came meanwhile (`isCurrent`), so a read that raced a write never stores what the write made
 *   stale.
 * - Requests that need the same read at the same moment share one (`run`): under concurrent paging every page's
 *   records were otherwise read and serialised by every request in flight that showed them. A read started before a
 *   change is joined by no request after it.
 * - A read that fails is forgotten at once: the next request reads again, nothing is kept.
 *
 * `K`: what names a read. Reads are joined by equal key (`run`), or by any key a caller's test accepts (`find`: a
 * list's read of positions 0-150 also answers a request for positions 50-100).
 */
export class GuardedReads<K = string> {
  private generation = 0;
  private readonly underWay = new Map<K, Promise<unknown>>();

  /** The generation a read takes before it starts (to pass to `run`, `isCurrent`). */
  current(): number {
    return this.generation;
  }

  /** Whether what was read under `generation` may be kept: no change came since it started. */
  isCurrent(generation: number): boolean {
    return generation === this.generation;
  }

  /** A change: reads under way are joined no more, and nothing they read is kept. */
  advance(): void {
    this.generation++;
    this.underWay.clear();
  }

  /** The read of `key` under way in `generation`, if one is. */
  joinable<T>(key: K, generation = this.generation): Promise<T> | undefined {
    return generation === this.generation ? (this.underWay.get(key) as Promise<T> | undefined) : undefined;
  }

  /** A read under way in `generation` whose key `matches` accepts, if one is. */
  find(matches: (key: K) => boolean, generation = this.generation): Promise<unknown> | undefined {
    if (generation !== this.generation) return undefined;
    for (const [key, read] of this.underWay) if (matches(key)) return read;
    return undefined;
  }

  /**
   * The one read of `key` for `generation` (taken before the caller read anything this read depends on): the one under
   * way, or `read()` started now and joinable until it settles. `keep` is called with its value once, by the request
   * that started it, when it succeeded and no change came since `generation`; a failed read keeps nothing and is not
   * joined again.
   */
  run<T>(key: K, read: () => Promise<T>, keep?: (value: T) => void, generation = this.generation): Promise<T> {
    const joined = this.joinable<T>(key, generation);
    if (joined) return joined;
    const started = read();
    if (generation !== this.generation) return started;
    this.underWay.set(key, started);
    const settled = () => {
      if (this.underWay.get(key) === started) this.underWay.delete(key);
    };
    started.then(
      (value) => {
        settled();
        if (keep && generation === this.generation) keep(value);
      },
      settled,
    );
    return started;
  }
}
