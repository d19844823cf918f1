// A small round-robin reverse proxy for the cluster part, behaving as the compose file's Caddy does
// (deploy/Caddyfile): an upstream that refuses the connection is skipped and the request tried on the next one for
// up to `tryForMs` (lb_try_duration), and skipped for `failForMs` after (fail_duration). Requests on a reused
// connection that the upstream closed before answering are retried too, as Node's own agent documents for
// keep-alive races. Nothing is retried once an upstream has answered.
import http from 'node:http';

export async function startBalancer({ upstreams, tryForMs = 10_000, failForMs = 2000 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const downUntil = new Map();
  let next = 0;
  const stats = { retried: 0 };

  function pick() {
    const now = Date.now();
    for (let i = 0; i < upstreams.length; i++) {
      const upstream = upstreams[next++ % upstreams.length];
      if ((downUntil.get(upstream) ?? 0) <= now) return upstream;
    }
    return upstreams[next++ % upstreams.length];
  }

  function forward(req, res, body, startedAt) {
    const upstream = pick();
    const out = http.request({ host: '127.0.0.1', port: upstream, method: req.method, path: req.url, headers: req.headers, agent });
    out.on('response', (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    });
    out.on('error', (err) => {
      const refused = err.code === 'ECONNREFUSED';
      const closedBeforeAnswer = out.reusedSocket && err.code === 'ECONNRESET';
      if ((refused || closedBeforeAnswer) && Date.now() - startedAt < tryForMs && !res.headersSent) {
        if (refused) downUntil.set(upstream, Date.now() + failForMs);
        stats.retried++;
        setTimeout(() => forward(req, res, body, startedAt), refused ? 0 : 10);
        return;
      }
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`bad gateway: ${err.code ?? err.message}`);
    });
    out.end(body);
  }

  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => forward(req, res, Buffer.concat(chunks), Date.now()));
  });
  server.keepAliveTimeout = 65_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    close: () => {
      agent.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
