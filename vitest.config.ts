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
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      'apps/web/vite.config.ts',
      'apps/web/vitest.preact.config.ts',
    ],
  },
});
