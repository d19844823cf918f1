// A second reference beside nginx: the least a node:http server can do to answer a cached read. A bare node:http server
// (run with the site's Node.js flags) that sends the site's own gzip bytes with the site's own headers from memory, with
// no lookup at all. The site answers plain cached reads on the socket before node:http parses them (socket-hits.ts),
// so "of floor" above 100 % is what skipping node:http's own per-request work gains; below it, the site's own cost.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, stop, track, waitForHttp } from './proc.mjs';
import { SITE_NODE_FLAGS } from './site.mjs';

/** The server: one answer per path, each a list of headers for writeHead and a body, as the site writes its hits. */
const SERVER = `
import http from 'node:http';
import { readFileSync } from 'node:fs';
const { port, answers } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const byPath = new Map(Object.entries(answers).map(([p, a]) => [p, { headers: a.headers, body: Buffer.from(a.body, 'base64') }]));
http.createServer((req, res) => {
  const answer = byPath.get(req.url);
  if (!answer) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, answer.headers);
  res.end(answer.body);
}).listen(port, '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
`;

/** Response headers that node:http writes itself (or that describe the connection), left out of the copied list. */
const WRITTEN_BY_NODE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * `answers`: {path: {headers, gz}}, the headers as the site sent them (an object of lower-case names) and its gzip
 * bytes. Served at http://127.0.0.1:<port><path>.
 */
export async function startNodeFloor({ workDir, answers }) {
  const port = await freePort();
  const config = { port, answers: {} };
  for (const [urlPath, { headers, gz }] of Object.entries(answers)) {
    const flat = [];
    for (const [name, value] of Object.entries(headers)) {
      if (WRITTEN_BY_NODE.has(name)) continue;
      for (const one of Array.isArray(value) ? value : [value]) flat.push(name, one);
    }
    config.answers[urlPath] = { headers: flat, body: gz.toString('base64') };
  }
  const serverFile = path.join(workDir, 'node-floor-server.mjs');
  const configFile = path.join(workDir, 'node-floor.json');
  writeFileSync(serverFile, SERVER);
  writeFileSync(configFile, JSON.stringify(config));
  const child = track(spawn(process.execPath, [...SITE_NODE_FLAGS, serverFile, configFile], { stdio: ['ignore', 'ignore', 'pipe'] }));
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const first = Object.keys(answers)[0];
  try {
    await waitForHttp(`http://127.0.0.1:${port}${first}`, { child, timeoutMs: 15_000 });
  } catch (err) {
    await stop(child);
    throw new Error(`the node:http floor did not start: ${err.message}\n${stderr}`);
  }
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => stop(child) };
}
