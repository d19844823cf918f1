import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two cores: PGlite start-up is CPU-bound.
    maxWorkers: 2,
    projects: [
      { test: { name: 'shared', root: 'packages/shared', include: ['test/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          env: { NODE_ENV: 'test' },
          // One PostgreSQL server and one Chromium for the whole run, started when first asked for.
          globalSetup: ['test/fixtures/global-setup.ts'],
          // Timeouts only catch a hang: a test on a loaded 2-core machine may take minutes and must still pass. No test
          // file sets a shorter one of its own.
          testTimeout: 300_000,
          hookTimeout: 600_000,
        },
      },
      // The bench's own logic (its verdicts on targets); the bench itself runs with `npm run bench`.
      { test: { name: 'bench', root: 'bench', include: ['test/**/*.test.mjs'], environment: 'node' } },
      'apps/web/vite.config.ts',
      'apps/web/vitest.preact.config.ts',
    ],
  },
});
