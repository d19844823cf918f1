import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { etagMatches } from '../../etag';

/** Public reads change on any write, so caches must revalidate every time (cheap with ETag -> 304). */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=0, must-revalidate';
/** What a signed-in reader gets: never kept by shared caches, revalidated by the browser. */
export const PRIVATE_CACHE_CONTROL = 'private, no-cache';

/** A public response kept serialised and already compressed, so a hit costs no JSON work and no compression. */
export interface CachedResponse {
  status: number;
  etag: string;
  headers: Record<string, string>;
  identity: Buffer;
  gzip: Buffer | null;
  br: Buffer | null;
  /**
   * Every response header as first sent (security headers included), flattened for `writeHead`, one list per body
   * encoding; filled by the plugin when the entry is stored, so a hit costs no header work at all.
   */
  wire?: { br: string[] | null; gzip: string[] | null; identity: string[]; notModified: string[] };
}

export interface Produced {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

/** Bodies smaller than this are not worth compressing. */
const COMPRESS_MIN_BYTES = 512;

/**
 * A copy that owns exactly its bytes. zlib's results are views of its 16 KB output chunks and short strings become
 * views of Buffer's shared 8 KB slabs: kept in the cache, each would hold far more memory than its length says (a
 * 3 KB compressed list kept 16 KB), so the cache grew to several times CACHE_MAX_MB before evicting anything.
 */
function exact(bytes: Buffer): Buffer {
  const out = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(out);
  return out;
}

export function makeEntry(produced: Produced): CachedResponse {
  const identity = exact(Buffer.isBuffer(produced.body) ? produced.body : Buffer.from(produced.body));
  const compress = identity.length >= COMPRESS_MIN_BYTES;
  return {
    status: produced.status,
    etag: produced.headers.etag ?? `"${createHash('sha1').update(identity).digest('base64url')}"`,
    headers: produced.headers,
    identity,
    gzip: compress ? exact(gzipSync(identity, { level: 6 })) : null,
    br: compress
      ? exact(
          brotliCompressSync(identity, {
            params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 6, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: identity.length },
          }),
        )
      : null,
  };
}

/** Which stored body fits the request's Accept-Encoding (brotli first). */
export function pickEncoding(entry: CachedResponse, acceptEncoding: string | undefined): { body: Buffer; encoding: 'br' | 'gzip' | null } {
  const accept = acceptEncoding ?? '';
  if (entry.br && /\bbr\b/.test(accept)) return { body: entry.br, encoding: 'br' };
  if (entry.gzip && /\bgzip\b/.test(accept)) return { body: entry.gzip, encoding: 'gzip' };
  return { body: entry.identity, encoding: null };
}

/**
 * LRU of public responses bounded by bytes. A record change clears it (`invalidateAll`): writes are rare next to
 * reads, and clearing everything cannot leave a stale list, detail, gallery or link preview behind. A generation number stops a
 * read that started before a write from storing what it read after the write cleared the cache.
 */
export class ResponseCache {
  private readonly lru: LRUCache<string, CachedResponse>;
  private generation = 0;
  hits = 0;
  misses = 0;

  constructor(maxBytes: number) {
    this.lru = new LRUCache<string, CachedResponse>({
      maxSize: Math.max(1024, maxBytes),
      sizeCalculation: (e) => e.identity.length + (e.gzip?.length ?? 0) + (e.br?.length ?? 0) + 256,
    });
  }

  get(key: string): CachedResponse | undefined {
    const entry = this.lru.get(key);
    if (entry) this.hits++;
    else this.misses++;
    return entry;
  }

  /** The generation to pass to `set` (taken before producing the response). */
  currentGeneration(): number {
    return this.generation;
  }

  set(key: string, entry: CachedResponse, generation: number): boolean {
    if (generation !== this.generation) return false;
    this.lru.set(key, entry);
    return true;
  }

  invalidateAll(): void {
    this.generation++;
    this.lru.clear();
  }

  /** Drops the entries whose key matches; reads in flight are not stored (they may have read before the change). */
  invalidateWhere(matches: (key: string) => boolean): void {
    this.generation++;
    for (const key of [...this.lru.keys()]) if (matches(key)) this.lru.delete(key);
  }

  get size(): number {
    return this.lru.size;
  }

  get bytes(): number {
    return this.lru.calculatedSize ?? 0;
  }
}

/**
 * Writes a cached anonymous read straight to the socket with the headers its first answer carried (security headers
 * included). True when it answered; false when the request is not a cached anonymous GET or HEAD.
 */
export function answerFromCache(cache: ResponseCache, req: IncomingMessage, res: ServerResponse): boolean {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || req.headers.authorization || !req.url) return false;
  const entry = cache.get(req.url);
  if (!entry?.wire) return false;
  if (etagMatches(req.headers['if-none-match'], entry.etag)) {
    res.writeHead(304, entry.wire.notModified);
    res.end();
    return true;
  }
  const { body, encoding } = pickEncoding(entry, req.headers['accept-encoding']);
  res.writeHead(entry.status, encoding === 'br' ? entry.wire.br! : encoding === 'gzip' ? entry.wire.gzip! : entry.wire.identity);
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
