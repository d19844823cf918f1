// The reference: nginx sending the site's own response bytes from pre-gzipped files (gzip_static), one worker (the
// site is one Node process), own config and temp folders, a free port, in the foreground as a child of the bench.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { freePort, stop, track, waitForHttp } from './proc.mjs';

/** `files`: {name: gzipBytes}; each is served at /<name> as <name>.gz (and <name> holds the plain bytes). */
export async function startNginx({ workDir, files, nginxBin = 'nginx' }) {
  const port = await freePort();
  const www = path.join(workDir, 'www');
  for (const dir of ['www', 'temp', 'logs']) mkdirSync(path.join(workDir, dir), { recursive: true });
  for (const [name, gz] of Object.entries(files)) {
    writeFileSync(path.join(www, `${name}.gz`), gz);
    writeFileSync(path.join(www, name), gunzipSync(gz));
  }
  // Workers started by root run as `nobody` unless told otherwise; the temp folders are private to the bench user.
  const user = process.getuid?.() === 0 ? 'user root root;' : '';
  const temp = path.join(workDir, 'temp');
  const conf = `
${user}
daemon off;
master_process on;
worker_processes 1;
pid ${path.join(workDir, 'nginx.pid')};
error_log ${path.join(workDir, 'logs', 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${temp}/body;
  proxy_temp_path ${temp}/proxy;
  fastcgi_temp_path ${temp}/fastcgi;
  uwsgi_temp_path ${temp}/uwsgi;
  scgi_temp_path ${temp}/scgi;
  default_type application/json;
  charset utf-8;
  charset_types application/json;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_timeout 65;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:${port};
    root ${www};
    gzip_static on;
    location / { add_header Vary Accept-Encoding; }
  }
}
`;
  const confFile = path.join(workDir, 'nginx.conf');
  writeFileSync(confFile, conf);
  chmodSync(workDir, 0o755);
  const child = track(spawn(nginxBin, ['-p', workDir, '-c', confFile, '-e', path.join(workDir, 'logs', 'stderr.log')], { stdio: ['ignore', 'pipe', 'pipe'] }));
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const first = Object.keys(files)[0];
  try {
    await waitForHttp(`http://127.0.0.1:${port}/${first}`, { child, timeoutMs: 15_000 });
  } catch (err) {
    await stop(child);
    throw new Error(`nginx did not start: ${err.message}\n${stderr}`);
  }
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, child, stop: () => stop(child) };
}
