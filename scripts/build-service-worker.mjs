#!/usr/bin/env node
// The service worker (apps/web/sw, docs/offline.md): bundled into dist/sw.js with the list of shell files to precache
// put where Workbox reads it (self.__WB_MANIFEST), as workbox-build's injectManifest does: the styles and fonts, the
// reading pages' scripts (the islands' entry and its imports), the icon. Hashed names carry their own revision; the
// icon gets its content's hash. Run by apps/web's build after Vite, before the files are compressed.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const dist = path.resolve(process.argv[2] ?? 'dist');
const webRoot = path.resolve(dist, '..');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));

function islandFiles() {
  const files = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit('src/islands/start.tsx');
  return files;
}

const shell = new Set([...islandFiles(), ...readdirSync(path.join(dist, 'assets')).filter((n) => /\.(css|woff2)$/.test(n)).map((n) => `assets/${n}`)]);
const entries = [...shell].sort().map((file) => ({ url: `/${file}`, revision: null }));
entries.push({ url: '/favicon.png', revision: createHash('sha256').update(readFileSync(path.join(dist, 'favicon.png'))).digest('hex').slice(0, 16) });

const out = path.join(dist, 'sw.js');
await build({
  entryPoints: [path.join(webRoot, 'sw', 'service-worker.ts')],
  bundle: true,
  format: 'iife',
  minify: true,
  target: 'es2022',
  outfile: out,
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});
const code = readFileSync(out, 'utf8');
if (!code.includes('self.__WB_MANIFEST')) throw new Error('build-service-worker: the bundle has no self.__WB_MANIFEST to fill');
writeFileSync(out, code.replace('self.__WB_MANIFEST', JSON.stringify(entries)));
console.log(`service worker: ${entries.length} shell files precached, ${(readFileSync(out).length / 1024).toFixed(1)} KiB`);
