import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import { CaptureRefused, type AddressPolicy } from './address-policy';
import { networkErrorInWords } from './network-errors';

export const REFUSED_HEADER = 'x-capture-refused';
/** Marks the proxy's own answer when the site could not be reached, so it is not taken for the site's page. */
export const UPSTREAM_ERROR_HEADER = 'x-capture-upstream-error';

/**
 * The only way out of a capture's browser: a forward proxy on loopback that checks every request against the address
 * policy and connects to the very address it checked. The browser resolves no name itself (a proxied browser leaves
 * that to the proxy), so redirects, sub-resources, workers and DNS answers that change between the check and the
 * connection (rebinding) all meet the same rule. It also counts the bytes received, for the size limit.
 */
export class GuardedProxy {
  readonly refused: { url: string; reason: string }[] = [];
  received = 0;
  overLimit = false;
  private readonly server: http.Server;
  private readonly sockets = new Set<net.Socket>();
  private readonly chains = new Map<string, Promise<string | null>>();

  constructor(
    private readonly policy: AddressPolicy,
    private readonly maxBytes: number,
  ) {
    this.server = http.createServer((req, res) => void this.forward(req, res));
    this.server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => void this.tunnel(req, socket, head));
    this.server.on('connection', (socket: net.Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  /** Listens on a port of loopback (its URL returned), or on the Unix socket `socketPath` (for a browser namespace). */
  async listen(socketPath?: string): Promise<string> {
    if (socketPath) {
      await new Promise<void>((resolve) => this.server.listen(socketPath, resolve));
      return socketPath;
    }
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private count(bytes: number, stop: () => void) {
    this.received += bytes;
    if (this.received > this.maxBytes && !this.overLimit) {
      this.overLimit = true;
      this.refused.push({ url: '', reason: `the page is larger than the limit of ${Math.round(this.maxBytes / 1024 / 1024)} MB` });
    }
    if (this.overLimit) stop();
  }

  /**
   * The certificate chain a TLS server at `address` presents for `host`, read once per host and port on a connection
   * of the proxy's own beside the browser's (the browser's tunnel is end-to-end encrypted, and Chromium gives no
   * page the chain it verified): same address, same name, same moment. Kept as PEM, with whether Node's CA store
   * accepts it.
   */
  private readChain(host: string, port: number, address: string): void {
    const key = `${host}:${port}`;
    if (this.chains.has(key)) return;
    this.chains.set(
      key,
      new Promise<string | null>((resolve) => {
        const socket = tls.connect({ host: address, port, servername: net.isIP(host) ? undefined : host, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] });
        const done = (value: string | null) => {
          socket.destroy();
          resolve(value);
        };
        socket.setTimeout(10_000, () => done(null));
        socket.on('error', () => done(null));
        socket.on('secureConnect', () => {
          const pems: string[] = [];
          const seen = new Set<string>();
          for (let cert: tls.DetailedPeerCertificate | undefined = socket.getPeerCertificate(true); cert?.raw && !seen.has(cert.fingerprint256); cert = cert.issuerCertificate) {
            seen.add(cert.fingerprint256);
            pems.push(`-----BEGIN CERTIFICATE-----\n${cert.raw.toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----`);
          }
          const trusted = socket.authorized ? 'accepted by Node.js\'s CA store' : `not accepted by Node.js's CA store (${String(socket.authorizationError)})`;
          done(pems.length ? `# https://${key} at ${address}, ${socket.getProtocol() ?? 'TLS'}, ${trusted}\n${pems.join('\n')}\n` : null);
        });
      }),
    );
  }

  /** The chains of every https host the page reached through the proxy (PEM, one block of comments and certificates each), or null. */
  async certificates(): Promise<string | null> {
    const chains = (await Promise.all(this.chains.values())).filter((c): c is string => c !== null);
    return chains.length ? chains.join('') : null;
  }

  private async forward(req: http.IncomingMessage, res: http.ServerResponse) {
    const target = req.url ?? '';
    let url: URL;
    let address: string;
    try {
      url = new URL(target);
      if (this.overLimit) throw new CaptureRefused('the size limit was reached');
      ({ address } = await this.policy.checkUrl(target));
    } catch (err) {
      const reason = err instanceof CaptureRefused ? err.message : `bad proxy request: ${(err as Error).message}`;
      this.refused.push({ url: target, reason });
      res.writeHead(403, { 'content-type': 'text/plain', [REFUSED_HEADER]: encodeURIComponent(reason) }).end(reason);
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const upstream = http.request(
      {
        host: address,
        port: Number(url.port || 80),
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers,
        // The Host header the browser sent names the site; the connection goes to the checked address.
        setHost: false,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.on('data', (chunk: Buffer) =>
          this.count(chunk.length, () => {
            answer.destroy();
            res.destroy();
          }),
        );
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      const reason = `${url.host} could not be reached: ${networkErrorInWords(err)}`;
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain', [UPSTREAM_ERROR_HEADER]: encodeURIComponent(reason) }).end(reason);
      else res.destroy();
    });
    req.pipe(upstream);
  }

  private async tunnel(req: http.IncomingMessage, client: net.Socket, head: Buffer) {
    const target = req.url ?? '';
    client.on('error', () => {});
    const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(target);
    let address: string;
    try {
      if (!match) throw new CaptureRefused(`bad tunnel target ${target.slice(0, 200)}`);
      if (this.overLimit) throw new CaptureRefused('the size limit was reached');
      ({ address } = await this.policy.checkHost(match[1]!, Number(match[2])));
    } catch (err) {
      const reason = err instanceof CaptureRefused ? err.message : String(err);
      this.refused.push({ url: `https://${target}`, reason });
      client.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    this.readChain(match[1]!, Number(match[2]), address);
    const upstream = net.connect(Number(match[2]), address, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    this.sockets.add(upstream);
    upstream.once('close', () => this.sockets.delete(upstream));
    upstream.on('data', (chunk: Buffer) =>
      this.count(chunk.length, () => {
        upstream.destroy();
        client.destroy();
      }),
    );
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  }
}
