#!/usr/bin/env node
// Bundles the server into apps/server/dist/main.js for production: plain JavaScript (no TypeScript compiler at run
// time: less memory and a faster start, docs/performance.md). The workspace's own @app/shared is bundled; every npm package stays
// an import of node_modules, loaded as usual.
import { build } from 'esbuild';

const keepExternal = {
  name: 'npm-packages-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@app/') ? undefined : { path: args.path, external: true }));
  },
};

for (const entry of ['main', 'worker', 'cli']) {
  await build({
    entryPoints: [`apps/server/src/${entry}.ts`],
    outfile: `apps/server/dist/${entry}.js`,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [keepExternal],
  });
}
console.log('server bundled into apps/server/dist');
