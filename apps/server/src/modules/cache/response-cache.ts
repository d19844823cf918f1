import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import { acceptedEncoding, bytesOf, compress, COMPRESS_MIN_BYTES, decompress, type Body, type Encoding } from '../../compression';
import { etagMatches } from '../../etag';
import { GuardedReads } from './guarded-reads';

/** How long a cached answer is served at most, unless told otherwise (config: CACHE_MAX_AGE_SECONDS). */
export const DEFAULT_MAX_AGE_MS = 300_000;

/** Public reads change on any write, so caches must revalidate every time (cheap with ETag -> 304). */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=0, must-revalidate';
/** What a signed-in reader gets: never kept by shared caches, revalidated by the browser. */
export const PRIVATE_CACHE_CONTROL = 'private, no-cache';

/** A public response kept serialised and already compressed, so a hit costs no JSON work and no compression. */
export interface CachedResponse {
  status: number;
  etag: string;
  headers: Record<string, string>;
  /**
   * The uncompressed body, kept only while no compressed one exists (and for bodies too small to compress). Nearly
   * every client takes gzip or brotli, and a list page's plain JSON is many times its compressed size: kept beside
   * them it made most of the cache's bytes. A client that takes neither gets it decompressed, which costs less than a
   * miss. Until stored, it may be the parts a list page is made of (compression.ts).
   */
  identity: Body | null;
  identityLength: number;
  /**
   * Compressed bodies, each made by the first request that takes its encoding: a miss pays only for the encoding it
   * sends (browsers take brotli, most other clients gzip).
   */
  encoded: Partial<Record<Encoding, Buffer>>;
  /**
   * Encodings compressed at per-request effort, by the request that produced the entry: an answer asked for once
   * (another page, a rare record) costs no more than an uncached read. A second request compresses it again at
   * stored effort, since it is now being served more than once.
   */
  quick: Partial<Record<Encoding, true>>;
  /**
   * Every response header as first sent (security headers included), flattened for `writeHead`, one list per body
   * sent; filled by the plugin when the entry is stored, so a hit costs no header work at all.
   */
  wire?: WireHeaders;
  /** Where the answers sent from the entry are counted (its route's, for /metrics); set when it is stored. */
  served?: ServedCounts;
}

/** Answers sent from the cache for one route, by method and status, read by /metrics at scrape time. */
export interface ServedCounts {
  route: string;
  GET: { 200: number; 304: number };
  HEAD: { 200: number; 304: number };
}

export interface WireHeaders {
  /** The headers every answer of the entry carries (a 304 carries just these). */
  base: string[];
  identity: string[];
  br?: string[];
  gzip?: string[];
}

export interface Produced {
  status: number;
  headers: Record<string, string>;
  body: string | Body;
}

/**
 * A copy that owns exactly its bytes. zlib's results are views of its 16 KB output chunks and short strings become
 * views of Buffer's shared 8 KB slabs: kept in the cache, each would hold far more memory than its length says, so
 * the cache grew to several times CACHE_MAX_MB before evicting anything. A
 * buffer that is already its whole allocation (a list page joined from its records) is kept as it is.
 */
function exact(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return bytes;
  const out = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(out);
  return out;
}

export function makeEntry(produced: Produced): CachedResponse {
  const identity = typeof produced.body === 'string' ? Buffer.from(produced.body) : produced.body;
  return {
    status: produced.status,
    etag: produced.headers.etag ?? `"${createHash('sha1').update(bytesOf(identity)).digest('base64url')}"`,
    headers: produced.headers,
    identity,
    identityLength: identity.length,
    encoded: {},
    quick: {},
  };
}

/** The headers of one body of the entry: the base list, its encoding and its length. */
export function wireFor(base: string[], length: number, encoding: Encoding | null): string[] {
  return [...base, ...(encoding ? ['content-encoding', encoding] : []), 'content-length', String(length)];
}

/** The uncompressed body: kept, or decompressed from a compressed one. */
export function identityOf(entry: CachedResponse): Body {
  if (entry.identity) return entry.identity;
  const [encoding, body] = Object.entries(entry.encoded)[0] as [Encoding, Buffer];
  return decompress(body, encoding);
}

/** What a stored entry keeps: no uncompressed body once a compressed one exists (see `identity`), else its own copy. */
function keepForStorage(entry: CachedResponse): void {
  if (!entry.identity) return;
  if (entry.encoded.br || entry.encoded.gzip) entry.identity = null;
  else entry.identity = exact(bytesOf(entry.identity));
}

/** The encoding an answer of the entry is sent with: none for a body too small to compress. */
function encodingFor(entry: CachedResponse, acceptEncoding: string | undefined): Encoding | null {
  return entry.identityLength >= COMPRESS_MIN_BYTES ? acceptedEncoding(acceptEncoding) : null;
}

/**
 * Which body fits the request's Accept-Encoding (brotli first). `first`: this is the request that produced the entry,
 * so a body it needs is compressed at per-request effort; later requests compress at stored effort what no request
 * took before or what the first one compressed quickly.
 */
export function pickEncoding(
  entry: CachedResponse,
  acceptEncoding: string | undefined,
  { first = false } = {},
): { body: Buffer; encoding: Encoding | null } {
  const encoding = encodingFor(entry, acceptEncoding);
  if (!encoding) return { body: bytesOf(identityOf(entry)), encoding: null };
  let body = entry.encoded[encoding];
  if (!body || (!first && entry.quick[encoding])) {
    body = exact(compress(identityOf(entry), encoding, first ? 'per-request' : 'stored'));
    entry.encoded[encoding] = body;
    if (first) entry.quick[encoding] = true;
    else delete entry.quick[encoding];
    if (entry.wire) entry.wire[encoding] = wireFor(entry.wire.base, body.length, encoding);
  }
  return { body, encoding };
}

/**
 * What an entry's objects take besides its bodies: the entry, its headers and their wire lists, the Buffer objects and
 * the cache's own bookkeeping, plus its header values, as measured (docs/performance.md). Counted as much less, a
 * cache of empty pages (past a list's end) held many times its bound.
 */
const ENTRY_OBJECTS_BYTES = 3072;

function entrySize(e: CachedResponse, key: string): number {
  let chars = key.length;
  for (const value of Object.values(e.headers)) chars += value.length;
  return (e.identity?.length ?? 0) + (e.encoded.br?.length ?? 0) + (e.encoded.gzip?.length ?? 0) + ENTRY_OBJECTS_BYTES + 2 * chars;
}

/**
 * How many keys each of the admission rule's two generations remembers (see `admits`): with the cache full, an answer
 * asked for again within the next 8,192 to 16,384 answers produced is stored. About 150 KB each.
 */
const ADMISSION_GENERATION_KEYS = 8192;

/** A 30-bit FNV-1a hash of a key: small integers, which a Set keeps without allocating. */
function keyHash(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash & 0x3fffffff;
}

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
  /** Hashes of the keys produced lately (see `admits`): the newer generation, and the one before it. */
  private producedLately = new Set<number>();
  private producedBefore = new Set<number>();
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
    const hash = keyHash(key);
    if (this.producedLately.has(hash) || this.producedBefore.has(hash)) return true;
    this.producedLately.add(hash);
    if (this.producedLately.size >= ADMISSION_GENERATION_KEYS) {
      this.producedBefore = this.producedLately;
      this.producedLately = new Set();
    }
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

/** A cached answer as it goes on the wire: status, the headers its first answer carried, and the body (none for HEAD or 304). */
export interface CachedAnswer {
  status: 200 | 304;
  headers: string[];
  body: Buffer | undefined;
  method: 'GET' | 'HEAD';
  /** Its route's counts (see `countServed`). */
  served: ServedCounts | undefined;
}

/**
 * THE decision of a cache hit: the cached answer to an anonymous GET or HEAD of `url` (a request URL, or the key it
 * normalises to), or null when none is stored (the request goes on to routing). The caller has checked that the
 * request is anonymous.
 */
export function cachedAnswer(
  cache: ResponseCache,
  method: 'GET' | 'HEAD',
  url: string,
  ifNoneMatch: string | undefined,
  acceptEncoding: string | undefined,
): CachedAnswer | null {
  const found = cache.lookup(url);
  const entry = found?.entry;
  if (!found || !entry?.wire) return null;
  cache.hits++;
  if (etagMatches(ifNoneMatch, entry.etag)) return { status: 304, headers: entry.wire.base, body: undefined, method, served: entry.served };
  const { body, encoding } = cache.bodyOf(found.key, entry, acceptEncoding);
  const headers = encoding ? entry.wire[encoding]! : entry.wire.identity;
  return { status: 200, headers, body: method === 'HEAD' ? undefined : body, method, served: entry.served };
}

/** The id a request answered from the cache gets, from its X-Request-Id header (given by the app: ops/request-id.ts). */
export type RequestIdFor = (given: string | string[] | undefined) => string;

/** Told of each answer sent from the cache before Fastify (LOG_CACHED_HITS logs them; app.ts). */
export type CachedHitLog = (method: string, url: string, status: number, requestId: string) => void;

/** Counts an answer sent where Fastify does not see it (its hooks count the others), for /metrics. */
export function countServed(answer: CachedAnswer): void {
  if (answer.served) answer.served[answer.method][answer.status]++;
}

/**
 * The node:http way of sending a cached answer (the socket fast path has its own, socket-hits.ts): the headers its
 * first answer carried (security headers included), then the request's id.
 */
export function writeCachedAnswer(res: ServerResponse, answer: CachedAnswer, requestId: string): void {
  res.writeHead(answer.status, [...answer.headers, 'x-request-id', requestId]);
  res.end(answer.body);
}
