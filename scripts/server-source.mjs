#!/usr/bin/env node
// `npm run admin`, `npm run media:verify`, `npm run worker`: runs a TypeScript entry of apps/server (src/cli.ts,
// src/worker.ts) with tsx, in apps/server (where DATA_DIR's default ./data is read), as this same process
// (exec-node.mjs): a command's own message is the last thing printed and its exit code is npm's, and a signal to
// `npm run worker` reaches the worker.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execNode } from './exec-node.mjs';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/server');
const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/server-source.mjs src/<entry>.ts [arguments]');
  process.exit(2);
}
execNode(['--import', 'tsx', entry, ...args], SERVER_DIR);
