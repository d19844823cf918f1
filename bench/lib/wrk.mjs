// wrk on loopback: requests/s, p50/p99 latency (--latency), errors (non-2xx/3xx answers and socket errors).
import { writeFileSync } from 'node:fs';
import { run } from './proc.mjs';

const UNIT_MS = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function toMs(text) {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  return match ? Number(match[1]) * UNIT_MS[match[2]] : null;
}

export function parseWrk(output) {
  const num = (re) => {
    const m = re.exec(output);
    return m ? Number(m[1]) : 0;
  };
  const latency = (pct) => {
    const m = new RegExp(`^\\s+${pct}%\\s+(\\S+)`, 'm').exec(output);
    return m ? toMs(m[1]) : null;
  };
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    requestsPerSec: num(/Requests\/sec:\s+([\d.]+)/),
    requests: num(/(\d+) requests in/),
    p50Ms: latency(50),
    p99Ms: latency(99),
    non2xx: num(/Non-2xx or 3xx responses: (\d+)/),
    socketErrors,
  };
}

/**
 * One bounded wrk run. `uniquePaths`: every request asks for another page of the list (`offset=<n>`, a Lua script),
 * so the response cache never has it: the anonymous miss path. (Parameters the API does not know, such as `_b=`, no
 * longer do: the cache keys on the parameters that change the answer.) `authorization`: a signed-in reader's session
 * (see reader.mjs), so the answer is produced for that reader on every request and never cached: the signed-in path.
 * `uniqueFrom`: the offset the unique pages start after, so a second run asks for pages the first did not.
 * `lua`: a request script of the caller's own instead. `wrapAt`: the list's total. Offsets then stay inside the list: past it they start again at 0 with a page one entry
 * longer, so every request is still another page (pages past the end are empty, and cost far less than real ones).
 */
export async function runWrk({ url, threads = 1, connections = 32, durationS = 10, uniquePaths = false, uniqueFrom = 0, wrapAt = 0, authorization = null, scriptFile, lua = null }) {
  const args = [`-t${threads}`, `-c${connections}`, `-d${durationS}s`, '--timeout', '5s', '--latency', '-H', 'Accept-Encoding: gzip'];
  if (authorization) args.push('-H', `Authorization: ${authorization}`);
  if (uniquePaths) {
    const { pathname, search } = new URL(url);
    const params = new URLSearchParams(search);
    params.delete('offset');
    const limit = Number(params.get('limit') ?? 12);
    if (wrapAt) params.delete('limit');
    const base = `${pathname}?${params.toString()}${params.size ? '&' : ''}`;
    const width = Math.max(1, Math.floor(wrapAt) - limit);
    const page = wrapAt
      ? `"${base}limit=" .. (${limit} + math.floor(n / ${width})) .. "&offset=" .. (n % ${width})`
      : `"${base}offset=" .. n`;
    writeFileSync(
      scriptFile,
      `local n = ${Math.max(0, Math.floor(uniqueFrom))}\nrequest = function()\n  n = n + 1\n  return wrk.format("GET", ${page})\nend\n`,
    );
    args.push('-s', scriptFile);
  }
  if (lua) {
    // A request script of the caller's own (e.g. a mix of unique searches).
    writeFileSync(scriptFile, lua);
    args.push('-s', scriptFile);
  }
  args.push(url);
  const { code, stdout, stderr } = await run('wrk', args, { timeoutMs: (durationS + 20) * 1000 });
  if (code !== 0) throw new Error(`wrk failed (${code}): ${stderr || stdout}`);
  return { ...parseWrk(stdout), raw: stdout };
}
