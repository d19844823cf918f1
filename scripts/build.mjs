#!/usr/bin/env node
// `npm run build`: the web app (apps/web/dist and dist-ssr) and the server bundle (apps/server/dist), then a stamp of
// the sources they were built from, which `npm start` (scripts/start.mjs) compares to build only when they changed.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Beside the server bundle: the hash of the sources it was built from. */
const STAMP = 'apps/server/dist/build-stamp.json';
/** What a build makes; a start builds again when one is missing. */
const OUTPUTS = ['apps/server/dist/main.js', 'apps/web/dist/index.html', 'apps/web/dist-ssr'];
/** What a build reads: the workspaces' sources and manifests, the lockfile and the build scripts. */
const SOURCES = [
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'scripts/build.mjs',
  'scripts/build-server.mjs',
  'scripts/compress-dist.mjs',
  'scripts/build-service-worker.mjs',
  'packages/shared',
  'apps/server/package.json',
  'apps/server/tsconfig.json',
  'apps/server/src',
  'apps/web',
];
/** Not read by a build: outputs, installed packages, tests. */
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'dist-ssr', 'test', 'coverage', '.vite', '.generated']);
const isTest = (name) => /\.test\.[cm]?[jt]sx?$/.test(name);

function* files(root, relative) {
  const full = path.join(root, relative);
  if (!existsSync(full)) return;
  const entries = readdirSync(full, { withFileTypes: true });
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const child = path.posix.join(relative, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) yield* files(root, child);
    } else if (entry.isFile() && !isTest(entry.name)) {
      yield child;
    }
  }
}

/** SHA-256 over the names and contents of every source file: unchanged by a checkout that only touches times. */
export function sourcesHash(root = ROOT) {
  const hash = createHash('sha256');
  for (const source of SOURCES) {
    const list = statSync(path.join(root, source), { throwIfNoEntry: false })?.isFile() ? [source] : [...files(root, source)];
    for (const file of list) hash.update(`${file}\0`).update(readFileSync(path.join(root, file))).update('\0');
  }
  return hash.digest('hex');
}

/** Whether the build on disk was made from the sources as they are now. */
export function buildIsCurrent(root = ROOT) {
  if (!OUTPUTS.every((output) => existsSync(path.join(root, output)))) return false;
  try {
    return JSON.parse(readFileSync(path.join(root, STAMP), 'utf8')).sources === sourcesHash(root);
  } catch {
    return false;
  }
}

/**
 * Runs a build step as a child; a SIGINT or SIGTERM meanwhile is passed to it and ends the build (the stamp is not
 * written, so the next start builds again).
 */
function step(command, args, cwd = ROOT) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: 'inherit' });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward).on('SIGTERM', forward);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward).off('SIGTERM', forward);
      if (code === 0) resolve();
      else reject(new BuildError(`${[command, ...args].join(' ')} ${signal ? `stopped by ${signal}` : `failed (exit code ${code})`}`));
    });
  });
}

export class BuildError extends Error {}

/** The build needs vite and esbuild, development dependencies: an installation without them cannot build. */
function missingBuildTools(root) {
  return ['vite', 'esbuild'].filter((name) => !existsSync(path.join(root, 'node_modules', name, 'package.json')));
}

/** Records that the build on disk was made from the sources whose hash is given (read before the build began). */
export function writeStamp(root, hash) {
  writeFileSync(path.join(root, STAMP), `${JSON.stringify({ sources: hash, builtAt: new Date().toISOString() })}\n`);
}

export async function build(root = ROOT) {
  const missing = missingBuildTools(root);
  if (missing.length) {
    throw new BuildError(
      `Building the site needs the development dependencies (${missing.join(', ')} not installed: was it installed with --omit=dev?). ` +
        'Build once with them (npm ci && npm run build), then run the built site with npm run serve; docs/deploy.md, "Without Docker".',
    );
  }
  const hash = sourcesHash(root);
  rmSync(path.join(root, STAMP), { force: true });
  await step('npm', ['run', 'build', '-w', 'apps/web'], root);
  await step(process.execPath, [path.join(root, 'scripts/build-server.mjs')], root);
  writeStamp(root, hash);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  build().catch((err) => {
    console.error(err instanceof BuildError ? err.message : err);
    process.exit(1);
  });
}
