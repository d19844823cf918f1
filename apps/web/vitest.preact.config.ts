import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { preactAliases } from './vite.config';

/**
 * Tests of what the production build does on preact/compat where it differs from React (how a server-rendered page
 * is taken over): `*.preact.test.tsx`, with the production build's aliases.
 */
export default defineProject({
  plugins: [react()],
  resolve: { alias: preactAliases },
  test: {
    name: 'web-preact',
    include: ['test/**/*.preact.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['./test/setup.ts'],
  },
});
