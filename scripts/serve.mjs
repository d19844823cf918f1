#!/usr/bin/env node
// Runs the built site: Node.js with the site's flags (node-flags.mjs) on apps/server/dist/main.js, in apps/server
// (where DATA_DIR's default ./data is read). `npm run serve`, `npm start` after its build, the Docker image and the
// systemd unit of deploy/ all start it this way. The server replaces this process (exec-node.mjs), so SIGTERM or
// SIGINT to the process a supervisor started reaches the server, which closes its connections and its embedded
// database.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execNode } from './exec-node.mjs';
import { SITE_NODE_FLAGS, withSiteEnvironment } from './node-flags.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_DIR = path.join(ROOT, 'apps/server');
const ENTRY = path.join(SERVER_DIR, 'dist/main.js');

export function serve() {
  if (!existsSync(ENTRY)) {
    console.error(`${path.relative(ROOT, ENTRY)} is missing: build the site first (npm run build, or npm start, which builds when needed).`);
    process.exit(1);
  }
  execNode([...SITE_NODE_FLAGS, ENTRY, ...process.argv.slice(2)], SERVER_DIR, withSiteEnvironment(process.env));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) serve();
