// Replaces this process with Node.js running `args` in `cwd` (process.execve), so whoever started it (npm, systemd,
// tini, a terminal) signals and waits for that program itself, and sees its output last and its exit code. Between a
// supervisor and the program, a shell or a second npm was left running the program when only it was signalled, and
// a second npm printed its own error report after the program's last message (issue 42).
//
// A Node.js without execve (before 22.15: the system's Node 20, say, run as `node scripts/serve.mjs`) is too old
// for the site (package.json engines), so it never runs the program itself: the project's own Node.js
// (node_modules/.bin/node, which npm ci installs) runs it as a child, or, where there is none, it refuses with a
// message. That child has an IPC channel to this process and stops as on SIGTERM when the channel closes, so a
// `kill -9` of this wrapper no longer leaves a server holding the port (issue 51; bootstrap.ts, closeOnSignals).
import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_NODE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../node_modules/.bin/node');

export function execNode(args, cwd, env = process.env) {
  process.chdir(cwd);
  if (typeof process.execve === 'function') process.execve(process.execPath, [process.execPath, ...args], env);
  const node = existsSync(PROJECT_NODE) ? realpathSync(PROJECT_NODE) : null;
  if (!node || node === realpathSync(process.execPath)) {
    console.error(
      `Node.js ${process.version} is too old for the site, which needs Node.js 22.15 or later (package.json engines). ` +
        'Run it with a newer Node.js, or with the one npm ci installs: node_modules/.bin/node scripts/serve.mjs',
    );
    process.exit(1);
  }
  const child = spawn(node, args, { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env: { ...env, SITE_WATCHES_PARENT: '1' } });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
