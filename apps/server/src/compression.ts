import type { FastifyReply, FastifyRequest } from 'fastify';
import { brotliCompressSync, brotliDecompressSync, constants as zlibConstants, gunzipSync, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/** Bodies smaller than this are not worth compressing. */
export const COMPRESS_MIN_BYTES = 512;

/** The encoding a client takes, brotli first; null when it takes neither. */
export function acceptedEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  if (/\bbr\b/.test(acceptEncoding)) return 'br';
  if (/\bgzip\b/.test(acceptEncoding)) return 'gzip';
  return null;
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
  if (!encoding) return reply.send(bytesOf(bytes));
  const compressed = compress(bytes, encoding, 'per-request');
  return reply.header('content-encoding', encoding).header('content-length', compressed.length).send(compressed);
}
