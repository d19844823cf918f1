#!/usr/bin/env node
// Runs the built site: Node.js with the site's flags (node-flags.mjs) on apps/server/dist/main.js, in apps/server
// (where DATA_DIR's default ./data is read). `npm run serve`, `npm start` after its build, the Docker image and the
// systemd unit of deploy/ all start it this way.
//
// The server replaces this process (process.execve) rather than running as its child: whoever signals the process it
// started (npm, systemd, tini, a terminal) signals the server itself, which closes its connections and its embedded
// database. A child behind a shell or a second npm was left running when only its parent was signalled (issue 42).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SITE_NODE_FLAGS } from './node-flags.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_DIR = path.join(ROOT, 'apps/server');
const ENTRY = path.join(SERVER_DIR, 'dist/main.js');

/** Becomes the server; returns only where Node.js lacks process.execve (before 22.15), after the server ends. */
export function serve() {
  if (!existsSync(ENTRY)) {
    console.error(`${path.relative(ROOT, ENTRY)} is missing: build the site first (npm run build, or npm start, which builds when needed).`);
    process.exit(1);
  }
  process.chdir(SERVER_DIR);
  const args = [...SITE_NODE_FLAGS, ENTRY, ...process.argv.slice(2)];
  if (typeof process.execve === 'function') process.execve(process.execPath, [process.execPath, ...args], process.env);
  const child = spawn(process.execPath, args, { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 1));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) serve();
