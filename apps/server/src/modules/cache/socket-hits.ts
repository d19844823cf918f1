import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { cachedAnswer, countServed, type CachedAnswer, type CachedHitLog, type RequestIdFor } from './cached-answer';
import type { ResponseCache } from './response-cache';

/**
 * Cached anonymous reads answered on the connection itself, before node:http parses the request.
 *
 * Why: for a hit, node:http's own work per request (parser callbacks, an IncomingMessage and a ServerResponse, header
 * checks) costs more than the hit; answered here, a cached read costs little more than the write itself
 * (docs/performance.md, socket fast path, has the figures and the command that measures them).
 *
 * Only a plain request is answered here: read whole in one chunk, `GET` or `HEAD` of a path, HTTP/1.1, exactly one
 * Host, printable ASCII only, no body, no Authorization, no Connection other than keep-alive, and stored in the cache.
 * The first request that is anything else goes to node:http with the connection, byte for byte as it arrived, and so
 * does every request after it on that connection. So every hard part of HTTP (bodies, malformed or partial requests,
 * header and request timeouts, HTTP/1.0, upgrades, closing) stays node:http's, and a request is never read two ways.
 */
export function answerHitsOnSockets(server: Server, cache: ResponseCache, idFor: RequestIdFor, logHit?: CachedHitLog): Server {
  const [handOver] = server.listeners('connection') as ((this: Server, socket: Socket) => void)[];
  if (!handOver) throw new Error('answerHitsOnSockets needs a node:http server');
  server.removeListener('connection', handOver);
  const ownSockets = new Set<Socket>();
  const tail = new ResponseTail(server);

  server.on('connection', (socket: Socket) => {
    if (!server.listening || server.maxRequestsPerSocket) return handOver.call(server, socket);
    ownSockets.add(socket);
    const onData = (chunk: Buffer) => {
      if (socket.writableEnded) return;
      let at = 0;
      while (at < chunk.length) {
        // A client that does not read its answers is node:http's to slow down.
        const request = socket.writableNeedDrain || !server.listening ? null : readPlainRequest(chunk, at);
        const answer = request && cachedAnswer(cache, request.method, request.url, request.ifNoneMatch, request.acceptEncoding);
        if (!request || !answer) return release(chunk.subarray(at));
        countServed(answer);
        const requestId = idFor(request.requestId);
        write(socket, answer, requestId, tail.bytes());
        logHit?.(request.method, request.url, answer.status, requestId);
        at = request.end;
      }
    };
    const onEnd = () => socket.end();
    const onTimeout = () => socket.destroy();
    const onError = () => socket.destroy();
    const onClose = () => ownSockets.delete(socket);
    const release = (rest: Buffer) => {
      socket.removeListener('data', onData);
      socket.removeListener('end', onEnd);
      socket.removeListener('timeout', onTimeout);
      socket.removeListener('error', onError);
      socket.removeListener('close', onClose);
      socket.setTimeout(0);
      ownSockets.delete(socket);
      handOver.call(server, socket);
      // Synchronously, so these bytes reach node:http's parser before anything read from the socket later.
      if (rest.length) socket.emit('data', rest);
    };
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('timeout', onTimeout);
    socket.on('error', onError);
    socket.on('close', onClose);
    // Between requests a connection here is idle, as node:http's are after an answer.
    socket.setTimeout(server.keepAliveTimeout);
  });

  // Closing (Fastify calls closeIdleConnections, node:http's close does too): connections held here are idle between
  // requests, so they are closed as node:http closes its idle ones, once what was written to them is sent.
  const closeIdle = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => {
    closeIdle();
    for (const socket of ownSockets) socket.end(() => socket.destroy());
  };
  const closeAll = server.closeAllConnections.bind(server);
  server.closeAllConnections = () => {
    closeAll();
    for (const socket of ownSockets) socket.destroy();
  };
  return server;
}

/** What `readPlainRequest` takes from a request: all that decides a cached answer. */
interface PlainRequest {
  method: 'GET' | 'HEAD';
  url: string;
  ifNoneMatch: string | undefined;
  acceptEncoding: string | undefined;
  /** Its X-Request-Id, echoed when acceptable (else the answer gets a new one). */
  requestId: string | undefined;
  /** Where the next request starts. */
  end: number;
}

const HEAD_END = Buffer.from('\r\n\r\n');
/** Longer request heads go to node:http, which answers 431 past its own limit. */
const MAX_HEAD_BYTES = 8192;
const REQUEST_LINE = /^(GET|HEAD) (\/[\x21-\x7e]*) HTTP\/1\.1$/;
/** A header field: token name, then visible ASCII, spaces and tabs (RFC 9110 without obs-text, no obs-fold). */
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):([\t\x20-\x7e]*)$/;

/** The request starting at `start`, when it is whole and plain (see `answerHitsOnSockets`); null otherwise. */
export function readPlainRequest(data: Buffer, start: number): PlainRequest | null {
  const headEnd = data.indexOf(HEAD_END, start);
  if (headEnd === -1 || headEnd - start > MAX_HEAD_BYTES) return null;
  const lines = data.toString('latin1', start, headEnd).split('\r\n');
  const requestLine = REQUEST_LINE.exec(lines[0]!);
  if (!requestLine) return null;
  let hosts = 0;
  let ifNoneMatch: string | undefined;
  let acceptEncoding: string | undefined;
  let requestId: string | undefined;
  for (let i = 1; i < lines.length; i++) {
    const field = HEADER_LINE.exec(lines[i]!);
    if (!field) return null;
    const value = field[2]!.trim();
    switch (field[1]!.toLowerCase()) {
      case 'host':
        hosts++;
        break;
      case 'accept-encoding':
        if (acceptEncoding !== undefined) return null;
        acceptEncoding = value;
        break;
      case 'if-none-match':
        if (ifNoneMatch !== undefined) return null;
        ifNoneMatch = value;
        break;
      case 'x-request-id':
        if (requestId !== undefined) return null;
        requestId = value;
        break;
      case 'connection':
        if (value.toLowerCase() !== 'keep-alive') return null;
        break;
      case 'authorization':
      case 'content-length':
      case 'transfer-encoding':
      case 'upgrade':
      case 'expect':
        return null;
    }
  }
  if (hosts !== 1) return null;
  return { method: requestLine[1] as 'GET' | 'HEAD', url: requestLine[2]!, ifNoneMatch, acceptEncoding, requestId, end: headEnd + HEAD_END.length };
}

/** Status lines and headers of the cached header lists, as node:http writes them (`name: value`, in their order). */
const headBytesOf = new WeakMap<string[], { status: number; bytes: Buffer }>();

function headBytes(status: number, headers: string[]): Buffer {
  const known = headBytesOf.get(headers);
  if (known?.status === status) return known.bytes;
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'unknown'}\r\n`;
  for (let i = 0; i < headers.length; i += 2) head += `${headers[i]}: ${headers[i + 1]}\r\n`;
  const bytes = Buffer.from(head, 'latin1');
  headBytesOf.set(headers, { status, bytes });
  return bytes;
}

const REQUEST_ID_FIELD = 'x-request-id: ';

/**
 * One write of one buffer: with a copy of a few kilobytes it cost less than three writes corked (a writev). The
 * request's id goes between the cached headers and node:http's, where the node:http fallback writes it too.
 */
function write(socket: Socket, answer: CachedAnswer, requestId: string, tail: Buffer): void {
  const head = headBytes(answer.status, answer.headers);
  const idLength = REQUEST_ID_FIELD.length + requestId.length + 2;
  const bodyLength = answer.body?.length ?? 0;
  const out = Buffer.allocUnsafe(head.length + idLength + tail.length + bodyLength);
  head.copy(out, 0);
  out.write(`${REQUEST_ID_FIELD}${requestId}\r\n`, head.length, 'latin1');
  tail.copy(out, head.length + idLength);
  answer.body?.copy(out, head.length + idLength + tail.length);
  socket.write(out);
}

/**
 * The headers node:http adds to every keep-alive answer, and the blank line: Date (the same for a whole second, as
 * node:http keeps it), Connection and Keep-Alive with the server's keep-alive timeout.
 */
class ResponseTail {
  private current = Buffer.alloc(0);
  private until = 0;
  constructor(private readonly server: Server) {}

  bytes(): Buffer {
    const now = Date.now();
    if (now >= this.until) {
      this.until = now - (now % 1000) + 1000;
      const timeout = Math.floor(this.server.keepAliveTimeout / 1000);
      const keepAlive = this.server.keepAliveTimeout ? `Keep-Alive: timeout=${timeout}\r\n` : '';
      this.current = Buffer.from(`Date: ${new Date(now).toUTCString()}\r\nConnection: keep-alive\r\n${keepAlive}\r\n`, 'latin1');
    }
    return this.current;
  }
}
