import type { FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import { brotliCompressSync, brotliDecompressSync, constants as zlibConstants, gunzipSync, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/** Bodies smaller than this are not worth compressing. */
export const COMPRESS_MIN_BYTES = 512;

const OFFERED = ['br', 'gzip', 'identity'];
const PREFERRED = { preferred: ['br', 'gzip'] };
/**
 * Answers to the Accept-Encoding values seen lately. Clients send a handful of distinct values, so a hit (nearly
 * every request) costs a Map lookup instead of a parse; bounded, so random values only restart it.
 */
const negotiated = new Map<string, Encoding | null>();
const NEGOTIATED_MAX = 512;

/**
 * The encoding to send to a client, as RFC 9110 (12.5.3) reads its Accept-Encoding: q-values (`br;q=0` refuses
 * brotli), `*` for what the header does not name, `identity`; brotli before gzip when the client likes both as much.
 * Null: the body goes uncompressed (no header, nothing acceptable, or identity preferred).
 */
export function acceptedEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  let encoding = negotiated.get(acceptEncoding);
  if (encoding !== undefined) return encoding;
  try {
    // "x-gzip" is gzip (RFC 9110 8.4.1.3).
    const header = acceptEncoding.replace(/(^|[\s,])x-gzip(?=$|[\s,;])/gi, '$1gzip');
    const best = new Negotiator({ headers: { 'accept-encoding': header } }).encoding(OFFERED, PREFERRED);
    encoding = best === 'br' || best === 'gzip' ? best : null;
  } catch {
    // A header the parser gives up on asks for nothing it can read: the body goes uncompressed.
    encoding = null;
  }
  if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
  negotiated.set(acceptEncoding, encoding);
  return encoding;
}

/**
 * Marks an answer whose encoding this module chose (none) so that the global compression plugin leaves it as it is:
 * it reads Accept-Encoding otherwise (`*` as gzip, identity ignored), and would compress what RFC 9110 says the client
 * prefers uncompressed. Its own opt-out is a request header, set here on the request as the server sees it.
 */
export function keepUncompressed(request: FastifyRequest): void {
  request.headers['x-no-compression'] = 'encoding chosen by the sender';
}

/**
 * How hard to compress. `stored`: the body is compressed once and sent many times (the public response cache), so
 * a few more bytes saved are worth the CPU. `per-request`: the body is made for one reader (signed-in reads, a cache
 * entry's first answer), and at higher settings compressing took more CPU than everything else the read does
 * (docs/performance.md, compression).
 */
type Effort = 'stored' | 'per-request';

const SETTINGS: Record<Effort, { brotliQuality: number; gzipLevel: number }> = {
  stored: { brotliQuality: 6, gzipLevel: 6 },
  'per-request': { brotliQuality: 4, gzipLevel: 1 },
};

/**
 * A body kept as the buffers it is made of (a list page: its records' serialised bytes between brackets and commas),
 * joined only when it is sent or kept uncompressed. Most such bodies are only compressed, and a buffer of their own
 * per uncached read made V8 run full collections often (memory outside the JavaScript heap counts towards its limit),
 * which cost those reads much of their CPU and raised their p99 (docs/performance.md, compression).
 */
export class JoinedParts {
  readonly length: number;

  constructor(readonly parts: readonly Buffer[]) {
    let length = 0;
    for (const part of parts) length += part.length;
    this.length = length;
  }

  /** The parts joined into a buffer of their own. */
  toBuffer(): Buffer {
    return Buffer.concat(this.parts, this.length);
  }
}

export type Body = Buffer | JoinedParts;

export function bytesOf(body: Body): Buffer {
  return body instanceof JoinedParts ? body.toBuffer() : body;
}

/** Bodies up to this size are joined for compression in one buffer kept for it (larger ones in a buffer of their own). */
const SCRATCH_BYTES = 1 << 20;
let scratch: Buffer | null = null;

/**
 * The body as one buffer, for a compression that reads it before this module's next call: parts are copied into the
 * one scratch buffer. Only `compress` calls it, and zlib's synchronous calls have read their input when they return,
 * so no view of the scratch buffer outlives the call that filled it.
 */
function inputOf(body: Body): Buffer {
  if (!(body instanceof JoinedParts)) return body;
  if (body.length > SCRATCH_BYTES) return body.toBuffer();
  scratch ??= Buffer.allocUnsafeSlow(SCRATCH_BYTES);
  let offset = 0;
  for (const part of body.parts) offset += part.copy(scratch, offset);
  return scratch.subarray(0, offset);
}

/** One-shot compression (no stream: for a body already in memory it costs less than a zlib stream's machinery). */
export function compress(body: Body, encoding: Encoding, effort: Effort): Buffer {
  const bytes = inputOf(body);
  const settings = SETTINGS[effort];
  if (encoding === 'gzip') return gzipSync(bytes, { level: settings.gzipLevel });
  return brotliCompressSync(bytes, {
    params: {
      [zlibConstants.BROTLI_PARAM_QUALITY]: settings.brotliQuality,
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}

export function decompress(bytes: Buffer, encoding: Encoding): Buffer {
  return encoding === 'gzip' ? gunzipSync(bytes) : brotliDecompressSync(bytes);
}

/**
 * Sends a body made for this one request, compressed here in one call at per-request effort (the global compression
 * plugin leaves an answer that already names its encoding alone).
 */
export function sendPerRequest(request: FastifyRequest, reply: FastifyReply, body: string | Body): FastifyReply {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const encoding = bytes.length >= COMPRESS_MIN_BYTES ? acceptedEncoding(request.headers['accept-encoding']) : null;
  reply.header('vary', 'Accept-Encoding, Authorization');
  if (!encoding) {
    keepUncompressed(request);
    return reply.send(bytesOf(bytes));
  }
  const compressed = compress(bytes, encoding, 'per-request');
  return reply.header('content-encoding', encoding).header('content-length', compressed.length).send(compressed);
}
