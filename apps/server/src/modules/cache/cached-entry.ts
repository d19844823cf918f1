import { createHash } from 'node:crypto';
import { acceptedEncoding, bytesOf, compress, COMPRESS_MIN_BYTES, decompress, type Body, type Encoding } from '../../compression';

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
export function keepForStorage(entry: CachedResponse): void {
  if (!entry.identity) return;
  if (entry.encoded.br || entry.encoded.gzip) entry.identity = null;
  else entry.identity = exact(bytesOf(entry.identity));
}

/** The encoding an answer of the entry is sent with: none for a body too small to compress. */
export function encodingFor(entry: CachedResponse, acceptEncoding: string | undefined): Encoding | null {
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

export function entrySize(e: CachedResponse, key: string): number {
  let chars = key.length;
  for (const value of Object.values(e.headers)) chars += value.length;
  return (e.identity?.length ?? 0) + (e.encoded.br?.length ?? 0) + (e.encoded.gzip?.length ?? 0) + ENTRY_OBJECTS_BYTES + 2 * chars;
}
