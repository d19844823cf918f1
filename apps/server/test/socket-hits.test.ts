import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db';
import { readPlainRequest } from '../src/modules/cache/socket-hits';
import { appWithProbe } from './cache-probe';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  raw: Buffer;
}

/** A connection that sends bytes exactly as given and reads the answers one by one. */
class RawConnection {
  private received = Buffer.alloc(0);
  private wake: (() => void) | null = null;
  closed = false;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (data: Buffer) => {
      this.received = Buffer.concat([this.received, data]);
      this.wake?.();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake?.();
    });
    socket.on('error', () => {});
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  send(text: string): void {
    this.socket.write(Buffer.from(text, 'latin1'));
  }

  /** The next whole answer; `bodyless` for the answer to a HEAD (a 304 has no body either). */
  async answer({ bodyless = false } = {}): Promise<Answer> {
    for (;;) {
      const headEnd = this.received.indexOf('\r\n\r\n');
      if (headEnd !== -1) {
        const [statusLine, ...lines] = this.received.toString('latin1', 0, headEnd).split('\r\n');
        const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
        const status = Number(statusLine!.split(' ')[1]);
        const length = bodyless || status === 304 ? 0 : Number(headers['content-length'] ?? 0);
        const end = headEnd + 4 + length;
        if (this.received.length >= end) {
          const raw = this.received.subarray(0, end);
          this.received = this.received.subarray(end);
          return { status, headers, body: raw.subarray(headEnd + 4), raw };
        }
      }
      if (this.closed) throw new Error(`closed before a whole answer; unread: ${JSON.stringify(this.received.toString('latin1'))}`);
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** Whether nothing more arrives within `ms`. */
  async quietFor(ms: number): Promise<boolean> {
    const before = this.received.length;
    await new Promise((resolve) => setTimeout(resolve, ms));
    return this.received.length === before;
  }

  whenClosed(): Promise<void> {
    return this.closed ? Promise.resolve() : new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  close(): void {
    this.socket.destroy();
  }
}

const PROBE = '/api/v1.0.0/__probe';
const request = (url: string, headers: string[] = [], method = 'GET') =>
  `${method} ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`;
/** A header node:http accepts (obs-text) and the socket path does not, so the request goes to node:http. */
const VIA_NODE = 'X-Note: caf\xe9';
const withoutDate = (raw: Buffer) =>
  raw
    .toString('latin1')
    .replace(/\r\nDate: [^\r]*\r\n/, '\r\nDate: -\r\n')
    .replace(/\r\nx-request-id: [^\r]*\r\n/, '\r\nx-request-id: -\r\n');
const METRICS_TOKEN = 'socket-hits-metrics-token-test-only';

describe('cached reads answered on the socket', () => {
  let database: Database;
  let probe: Awaited<ReturnType<typeof appWithProbe>>;
  let port: number;
  /** Requests node:http parsed (each one the socket path did not answer). */
  let parsedByNode = 0;

  beforeAll(async () => {
    database = await openDatabase({});
    probe = await appWithProbe(database, { METRICS_TOKEN }, (app) => app.server.on('request', () => void parsedByNode++));
    await probe.app.listen({ port: 0, host: '127.0.0.1' });
    port = (probe.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await probe.app.close();
    await database.close();
  });

  /** A URL of its own for each test, produced once (a miss) and then stored. */
  async function stored(name: string): Promise<string> {
    const url = `${PROBE}?${name}`;
    const first = await fetch(`http://127.0.0.1:${port}${url}`);
    expect(first.status).toBe(200);
    return url;
  }

  it('sends the very bytes node:http sends for the same hit, Date aside, without node:http parsing it', async () => {
    const url = await stored('bytes');
    const variants: [string, string[], string][] = [
      ['gzip', ['Accept-Encoding: gzip'], 'GET'],
      ['brotli', ['Accept-Encoding: gzip, deflate, br'], 'GET'],
      ['no encoding', [], 'GET'],
      ['HEAD', ['Accept-Encoding: gzip'], 'HEAD'],
      ['keep-alive asked for, spaces and tabs around values', ['Connection: keep-alive', 'accept-encoding:\t gzip '], 'GET'],
    ];
    for (const [name, headers, method] of variants) {
      const viaNode = await RawConnection.open(port);
      const onSocket = await RawConnection.open(port);
      const parsed = parsedByNode;
      viaNode.send(request(url, [...headers, VIA_NODE], method));
      const fromNode = await viaNode.answer({ bodyless: method === 'HEAD' });
      expect(parsedByNode, name).toBe(parsed + 1);
      onSocket.send(request(url, headers, method));
      const fromSocket = await onSocket.answer({ bodyless: method === 'HEAD' });
      expect(parsedByNode, name).toBe(parsed + 1);
      expect(fromSocket.status, name).toBe(200);
      expect(withoutDate(fromSocket.raw), name).toBe(withoutDate(fromNode.raw));
      expect(fromSocket.headers.date, name).toMatch(/GMT$/);
      viaNode.close();
      onSocket.close();
    }

    const etag = (await fetch(`http://127.0.0.1:${port}${url}`)).headers.get('etag')!;
    const connection = await RawConnection.open(port);
    connection.send(request(url, [`If-None-Match: ${etag}`, VIA_NODE]));
    const notModifiedByNode = await connection.answer();
    const parsed = parsedByNode;
    connection.close();
    const again = await RawConnection.open(port);
    again.send(request(url, [`If-None-Match: ${etag}`]));
    const notModified = await again.answer();
    expect(parsedByNode).toBe(parsed);
    expect(notModified.status).toBe(304);
    expect(withoutDate(notModified.raw)).toBe(withoutDate(notModifiedByNode.raw));
    again.close();
  });

  it('reads Accept-Encoding as RFC 9110 says (q-values, identity, *) on the socket, through node:http and for a miss', async () => {
    const cases: [string, string | undefined][] = [
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0', undefined],
      ['no-br', undefined],
      ['br;q=0, *', 'gzip'],
      ['*', 'br'],
      ['gzip, br', 'br'],
      ['gzip;q=0.5, br;q=0.4', 'gzip'],
      ['identity, gzip;q=0.5', undefined],
      ['identity;q=0, GZIP', 'gzip'],
      ['x-gzip, br;q=0', 'gzip'],
      ['gzipped, no-br', undefined],
      ['gzip;q=0, br;q=0, *', undefined],
    ];
    const url = await stored('accept-encoding');
    for (const [acceptEncoding, expected] of cases) {
      const onSocket = await RawConnection.open(port);
      const viaNode = await RawConnection.open(port);
      const parsed = parsedByNode;
      onSocket.send(request(url, [`Accept-Encoding: ${acceptEncoding}`]));
      const fromSocket = await onSocket.answer();
      expect(parsedByNode, acceptEncoding).toBe(parsed);
      viaNode.send(request(url, [`Accept-Encoding: ${acceptEncoding}`, VIA_NODE]));
      const fromNode = await viaNode.answer();
      expect(parsedByNode, acceptEncoding).toBe(parsed + 1);
      // A miss: produced, compressed and sent by Fastify.
      const miss = await probe.app.inject({ method: 'GET', url: `${PROBE}?miss-${encodeURIComponent(acceptEncoding)}`, headers: { 'accept-encoding': acceptEncoding } });
      for (const [path, encoding] of [['socket', fromSocket.headers['content-encoding']], ['node:http', fromNode.headers['content-encoding']], ['miss', miss.headers['content-encoding']]]) {
        expect(encoding, `${acceptEncoding} (${path})`).toBe(expected);
      }
      onSocket.close();
      viaNode.close();
    }
  });

  it('counts every answer it sends in /metrics under its route, and echoes or assigns X-Request-Id, as node:http does', async () => {
    const url = await stored('counted');
    const route = PROBE;
    const countOf = async (status: number) => {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      const line = (await res.text()).split('\n').find((l) => l.startsWith(`http_requests_total{method="GET",route="${route}",status="${status}"}`));
      return Number(line?.split(' ').at(-1) ?? 0);
    };
    const [ok, notModified] = [await countOf(200), await countOf(304)];
    const parsed = parsedByNode;
    const connection = await RawConnection.open(port);
    connection.send(request(url, ['X-Request-Id: proxy-abc.123']) + request(url) + request(url, ['X-Request-Id: a"b']));
    const answers = [await connection.answer(), await connection.answer(), await connection.answer()];
    const etag = answers[0]!.headers.etag!;
    connection.send(request(url, [`If-None-Match: ${etag}`]));
    answers.push(await connection.answer());
    expect(parsedByNode).toBe(parsed);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 304]);
    expect(answers[0]!.headers['x-request-id']).toBe('proxy-abc.123');
    for (const answer of answers.slice(1)) expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(answers.map((a) => a.headers['x-request-id'])).size).toBe(4);
    // Through node:http (a header the socket path leaves to it), the same.
    const viaNode = await RawConnection.open(port);
    viaNode.send(request(url, ['X-Request-Id: proxy-def.456', VIA_NODE]));
    const fromNode = await viaNode.answer();
    expect(parsedByNode).toBe(parsed + 1);
    expect(fromNode.headers['x-request-id']).toBe('proxy-def.456');
    expect(await countOf(200)).toBe(ok + 4);
    expect(await countOf(304)).toBe(notModified + 1);
    connection.close();
    viaNode.close();
  });

  it('answers pipelined requests in order, and hands the connection to node:http at the first it does not answer', async () => {
    const url = await stored('pipelined');
    const connection = await RawConnection.open(port);
    const parsed = parsedByNode;
    const produced = probe.state.produced;
    connection.send(
      request(url, ['Accept-Encoding: gzip']) +
        request(url, [], 'HEAD') +
        request(`${PROBE}?pipelined-miss`) +
        request(url, ['Accept-Encoding: gzip']),
    );
    const first = await connection.answer();
    const head = await connection.answer({ bodyless: true });
    const miss = await connection.answer();
    const last = await connection.answer();
    expect([first.status, head.status, miss.status, last.status]).toEqual([200, 200, 200, 200]);
    expect(JSON.parse(gunzipSync(first.body).toString()).value).toBe('first');
    expect(head.body.length).toBe(0);
    expect(miss.headers['x-request-id']).toBeDefined();
    expect(probe.state.produced).toBe(produced + 1);
    expect(withoutDate(last.raw)).toBe(withoutDate(first.raw));
    // The miss and everything after it on the connection went to node:http.
    expect(parsedByNode).toBe(parsed + 2);
    expect(await connection.quietFor(100)).toBe(true);
    connection.close();
  });

  it('leaves to node:http a request that arrives in pieces', async () => {
    const url = await stored('pieces');
    const connection = await RawConnection.open(port);
    const parsed = parsedByNode;
    const whole = request(url, ['Accept-Encoding: gzip']);
    connection.send(whole.slice(0, 20));
    await new Promise((resolve) => setTimeout(resolve, 50));
    connection.send(whole.slice(20));
    const answer = await connection.answer();
    expect(answer.status).toBe(200);
    expect(JSON.parse(gunzipSync(answer.body).toString()).value).toBe('first');
    expect(parsedByNode).toBe(parsed + 1);
    connection.close();
  });

  it('leaves every request that is not plain to node:http, which answers it as it always has', async () => {
    const url = await stored('not-plain');
    const cases: [string, string, (answer: Answer) => void][] = [
      ['signed in', request(url, ['Authorization: Bearer not-a-token']), (a) => expect(a.headers['x-request-id']).toBeDefined()],
      ['HTTP/1.0', `GET ${url} HTTP/1.0\r\nHost: x\r\n\r\n`, (a) => expect(a.status).toBe(200)],
      ['Connection: close', request(url, ['Connection: close']), (a) => expect(a.headers.connection).toBe('close')],
      ['no Host', `GET ${url} HTTP/1.1\r\n\r\n`, (a) => expect(a.status).toBe(400)],
      ['a folded header', request(url, ['X-A: b', ' c']), (a) => expect(a.status).toBe(400)],
      ['a bare line feed', `GET ${url} HTTP/1.1\nHost: x\n\n`, (a) => expect(a.status).toBe(400)],
      ['a target that is not a path', request(`http://127.0.0.1${url}`), (a) => expect(a.status).toBe(200)],
    ];
    for (const [name, bytes, check] of cases) {
      const connection = await RawConnection.open(port);
      const parsed = parsedByNode;
      connection.send(bytes);
      const answer = await connection.answer();
      check(answer);
      // node:http either parsed it (and the route answered) or refused it itself.
      expect(parsedByNode > parsed || answer.status === 400, name).toBe(true);
      connection.close();
    }
  });

  it('never reads a request body as a request of its own (request smuggling)', async () => {
    const url = await stored('smuggling');
    const inner = request(url, ['Accept-Encoding: gzip']);
    const chunked = `${inner.length.toString(16)}\r\n${inner}\r\n0\r\n\r\n`;
    for (const bytes of [
      `GET ${url} HTTP/1.1\r\nHost: x\r\nContent-Length: ${inner.length}\r\n\r\n${inner}`,
      `GET ${url} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${chunked}`,
    ]) {
      const connection = await RawConnection.open(port);
      connection.send(bytes);
      const answer = await connection.answer();
      expect(answer.status).toBe(200);
      expect(await connection.quietFor(150)).toBe(true);
      connection.close();
    }
  });

  it('hands a client that does not read its answers to node:http, and every answer still arrives in order', async () => {
    const url = await stored('unread');
    const connection = await RawConnection.open(port);
    const parsed = parsedByNode;
    connection.socket.pause();
    const count = 20_000;
    connection.send(request(url).repeat(count));
    await new Promise((resolve) => setTimeout(resolve, 300));
    connection.socket.resume();
    for (let i = 0; i < count; i++) {
      const answer = await connection.answer();
      if (answer.status !== 200 || !answer.body.toString().includes('"first"')) throw new Error(`answer ${i}: ${answer.status}`);
    }
    expect(parsedByNode).toBeGreaterThan(parsed);
    connection.close();
  });

  it('misses on a connection it holds once a write clears the cache, and node:http answers what is new', async () => {
    const url = await stored('cleared');
    const connection = await RawConnection.open(port);
    connection.send(request(url));
    expect(JSON.parse((await connection.answer()).body.toString()).value).toBe(probe.state.value);
    expect((await fetch(`http://127.0.0.1:${port}${PROBE}`, { method: 'POST' })).status).toBe(200);
    connection.send(request(url));
    expect(JSON.parse((await connection.answer()).body.toString()).value).toBe('second');
    connection.close();
  });

  it('reads only whole, plain requests', () => {
    const read = (text: string) => readPlainRequest(Buffer.from(text, 'latin1'), 0);
    expect(read('GET /a?b=1 HTTP/1.1\r\nhOsT: x\r\nAccept-Encoding:  br \r\nIf-None-Match: "e"\r\n\r\nGET')).toEqual({
      method: 'GET',
      url: '/a?b=1',
      acceptEncoding: 'br',
      ifNoneMatch: '"e"',
      end: 'GET /a?b=1 HTTP/1.1\r\nhOsT: x\r\nAccept-Encoding:  br \r\nIf-None-Match: "e"\r\n\r\n'.length,
    });
    expect(read('GET /a HTTP/1.1\r\nHost: x\r\n')).toBeNull();
    expect(read('POST /a HTTP/1.1\r\nHost: x\r\n\r\n')).toBeNull();
    expect(read('GET /a b HTTP/1.1\r\nHost: x\r\n\r\n')).toBeNull();
    expect(read('GET /a HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\naccept-encoding: br\r\n\r\n')).toBeNull();
    expect(read('GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n')).toBeNull();
    expect(read('GET /a HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n')).toBeNull();
    expect(read('GET /a HTTP/1.1\r\nHost: x\r\nX-A: \x01\r\n\r\n')).toBeNull();
    expect(read('GET /a HTTP/1.1\r\nHost: x\r\nBad Name: v\r\n\r\n')).toBeNull();
    expect(read(`GET /${'a'.repeat(9000)} HTTP/1.1\r\nHost: x\r\n\r\n`)).toBeNull();
  });
});

describe('connections held by the socket path', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({});
  });
  afterAll(async () => {
    await database.close();
  });

  async function listening(): Promise<{ app: FastifyInstance; connection: RawConnection }> {
    const { app } = await appWithProbe(database);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    await fetch(`http://127.0.0.1:${port}${PROBE}`);
    const connection = await RawConnection.open(port);
    connection.send(request(PROBE));
    expect((await connection.answer()).status).toBe(200);
    return { app, connection };
  }

  it('are closed when the server closes, and closing does not wait for them', async () => {
    const { app, connection } = await listening();
    const started = Date.now();
    await app.close();
    await connection.whenClosed();
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('are destroyed by closeAllConnections, as node:http destroys its own', async () => {
    const { app, connection } = await listening();
    try {
      app.server.closeAllConnections();
      await connection.whenClosed();
      expect(connection.closed).toBe(true);
    } finally {
      await app.close();
    }
  });

  it("are closed after the server's keep-alive timeout without a request", async () => {
    const { app, connection } = await listening();
    try {
      app.server.keepAliveTimeout = 200;
      const fresh = await RawConnection.open((app.server.address() as AddressInfo).port);
      fresh.send(request(PROBE));
      await fresh.answer();
      const idleSince = Date.now();
      await fresh.whenClosed();
      expect(Date.now() - idleSince).toBeGreaterThanOrEqual(150);
      connection.close();
    } finally {
      await app.close();
    }
  });
});
