import { LRUCache } from 'lru-cache';
import { bytesOf, type Encoding } from '../../compression';
import { encodingFor, entrySize, keepForStorage, pickEncoding, type CachedResponse, type ServedCounts } from './cached-entry';
import { GuardedReads } from './guarded-reads';
import { RecentKeys } from './recent-keys';

/** How long a cached answer is served at most, unless told otherwise (config: CACHE_MAX_AGE_SECONDS). */
export const DEFAULT_MAX_AGE_MS = 300_000;

/** Public reads change on any write, so caches must revalidate every time (cheap with ETag -> 304). */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=0, must-revalidate';
/** What a signed-in reader gets: never kept by shared caches, revalidated by the browser. */
export const PRIVATE_CACHE_CONTROL = 'private, no-cache';

/**
 * How many keys each of the admission rule's two generations remembers (see `admits`): with the cache full, an answer
 * asked for again within the next 8,192 to 16,384 answers produced is stored. About 150 KB each.
 */
const ADMISSION_GENERATION_KEYS = 8192;

/**
 * LRU of public responses bounded by bytes. A record change clears it (`invalidateAll`): writes are rare next to
 * reads, and clearing everything cannot leave a stale list, detail, gallery or link preview behind.
 */
export class ResponseCache {
  private readonly lru: LRUCache<string, CachedResponse>;
  /**
   * Request URLs spelled otherwise than the key of the entry that answered them (`q=a+b` for `q=a%20b`, parameters in
   * another order, unknown parameters): so the first hook answers them too, before routing and validation, which cost a
   * cached search three quarters of its speed. Which key a URL has depends on nothing but its spelling, so an alias
   * never goes stale: a cleared entry only makes it miss. Bounded in bytes (a sixteenth of the cache's), so random
   * query strings only push older aliases out.
   */
  private readonly aliases: LRUCache<string, string>;
  /**
   * The generation guard (GuardedReads): a read that started before a change does not store what it read. Its reads
   * are not merged: a page whose answer is not stored (`cacheable: false`) is rendered from its whole address, which
   * its key does not tell apart, and the reads beneath it (records/fragments.ts) merge the costly part already.
   */
  private readonly reads = new GuardedReads();
  private readonly served = new Map<string, ServedCounts>();
  /** The keys produced lately (see `admits`). */
  private readonly producedLately = new RecentKeys(ADMISSION_GENERATION_KEYS);
  /**
   * Anonymous reads answered from the cache, and those it had to produce (counted by who answers, not per lookup: one
   * request may look up its exact URL and then its normalised key).
   */
  hits = 0;
  misses = 0;

  /** `maxAgeMs`: the longest an entry is served (CACHE_MAX_AGE_SECONDS), even if no change ever reaches this process. */
  constructor(maxBytes: number, maxAgeMs = DEFAULT_MAX_AGE_MS) {
    this.lru = new LRUCache<string, CachedResponse>({
      maxSize: Math.max(1024, maxBytes),
      sizeCalculation: entrySize,
      ttl: maxAgeMs,
    });
    this.aliases = new LRUCache<string, string>({
      maxSize: Math.max(1024, Math.floor(maxBytes / 16)),
      // Two strings, and the cache's bookkeeping of one more entry.
      sizeCalculation: (key, url) => 2 * (url.length + key.length) + 256,
    });
  }

  get(key: string): CachedResponse | undefined {
    return this.lru.get(key);
  }

  /** The counts of the answers sent from entries of `route` (the route's pattern, as /metrics names routes). */
  servedCounts(route: string): ServedCounts {
    let counts = this.served.get(route);
    if (!counts) {
      counts = { route, GET: { 200: 0, 304: 0 }, HEAD: { 200: 0, 304: 0 } };
      this.served.set(route, counts);
    }
    return counts;
  }

  /** Every route's counts of answers sent from the cache. */
  servedByRoute(): Iterable<ServedCounts> {
    return this.served.values();
  }

  /** The entry answering a request URL: stored under it, or under the key it is an alias of. */
  lookup(url: string): { key: string; entry: CachedResponse } | undefined {
    const entry = this.lru.get(url);
    if (entry) return { key: url, entry };
    const key = this.aliases.get(url);
    const aliased = key === undefined ? undefined : this.lru.get(key);
    return aliased && key !== undefined ? { key, entry: aliased } : undefined;
  }

  /** Remembers that `url` is answered by the entry of `key` (URLs longer than 2,048 characters are not kept). */
  alias(url: string, key: string): void {
    if (url !== key && url.length <= 2048) this.aliases.set(url, key);
  }

  /** Bytes the aliases take, as their bound counts them. */
  get aliasBytes(): number {
    return this.aliases.calculatedSize ?? 0;
  }

  /**
   * Whether a freshly produced answer is worth storing: while the cache has room for it, always; once it is full,
   * only when its key was produced before, lately. Then an answer asked for once (a crawler walking every page, another
   * page of a deep list) is sent and forgotten, so it neither pushes out the answers readers keep asking for nor makes
   * the memory churn: storing every such page into a full cache cost unique list pages more CPU (evicted entries are
   * garbage for the full collections; docs/performance.md). A page asked for twice is stored at its second
   * answer. Not cleared by changes: a key asked for before a change is stored at its first answer after it.
   */
  admits(key: string, entry: CachedResponse): boolean {
    if (this.producedLately.metBefore(key)) return true;
    return this.bytes + entrySize(entry, key) <= this.lru.maxSize;
  }

  /** The generation to pass to `set` (taken before producing the response). */
  currentGeneration(): number {
    return this.reads.current();
  }

  set(key: string, entry: CachedResponse, generation: number): boolean {
    if (!this.reads.isCurrent(generation)) return false;
    keepForStorage(entry);
    this.lru.set(key, entry);
    return true;
  }

  /**
   * The body of a stored entry for a request's Accept-Encoding, compressed at stored effort if it was not yet; the
   * entry's size in the cache then changes by what that changed.
   */
  bodyOf(key: string, entry: CachedResponse, acceptEncoding: string | undefined): { body: Buffer; encoding: Encoding | null } {
    // Nearly every hit: the body its encoding needs is there at stored effort, so nothing changes and nothing is measured.
    const encoding = encodingFor(entry, acceptEncoding);
    const stored = encoding ? entry.encoded[encoding] : entry.identity && bytesOf(entry.identity);
    if (stored && !(encoding && entry.quick[encoding])) return { body: stored, encoding };
    const before = entrySize(entry, key);
    const picked = pickEncoding(entry, acceptEncoding);
    keepForStorage(entry);
    // Setting the same object again would keep its old size: a copy makes the cache measure it anew.
    if (entrySize(entry, key) !== before && this.lru.peek(key) === entry) this.lru.set(key, { ...entry });
    return picked;
  }

  invalidateAll(): void {
    this.reads.advance();
    this.lru.clear();
  }

  /** Drops the entries whose key matches; reads in flight are not stored (they may have read before the change). */
  invalidateWhere(matches: (key: string) => boolean): void {
    this.reads.advance();
    for (const key of [...this.lru.keys()]) if (matches(key)) this.lru.delete(key);
  }

  get size(): number {
    return this.lru.size;
  }

  get bytes(): number {
    return this.lru.calculatedSize ?? 0;
  }
}
