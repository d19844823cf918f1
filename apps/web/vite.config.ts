import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The code is written against React's API. The production build runs it on preact/compat, React's API in about
 * 4 KB instead of react-dom's ~57 KB (brotli), which keeps the home page under its 100 KB budget on slow, expensive
 * connections. Development and unit tests use React itself; the browser suite tests the production build.
 */
export const preactAliases = {
  'react-dom/test-utils': 'preact/test-utils',
  'react-dom/client': 'preact/compat/client',
  'react-dom/server': 'preact/compat/server',
  'react-dom': 'preact/compat',
  'react/jsx-runtime': 'preact/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/jsx-runtime',
  react: 'preact/compat',
};

/**
 * Two builds: the browser's (dist/, with a manifest naming each screen's chunks and styles) and the server's renderer
 * of public pages (`--ssr src/entry-server.tsx`, dist-ssr/), which bundles its dependencies so it runs on the same
 * preact/compat as the browser and its HTML is what the browser's first render produces.
 */
export default defineConfig(({ command, mode, isSsrBuild }) => ({
  plugins: [react()],
  resolve: {
    alias: command === 'build' && mode !== 'react' ? preactAliases : {},
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000', '/media': 'http://localhost:3000', '/health': 'http://localhost:3000' },
  },
  build: { outDir: isSsrBuild ? 'dist-ssr' : 'dist', sourcemap: false, assetsInlineLimit: 0, manifest: !isSsrBuild },
  ssr: { noExternal: true, target: 'node' },
  test: {
    name: 'web',
    include: ['test/**/*.test.{ts,tsx}', 'src/**/*.test.{ts,tsx}'],
    // Behaviour that differs between the two runs on Preact alone (vitest.preact.config.ts).
    exclude: [...configDefaults.exclude, '**/*.preact.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['./test/setup.ts'],
  },
}));
