import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_FLAGS } from './packages/shared/src/chromium-flags';

/**
 * Browser tests against the built site on its embedded PostgreSQL server in a fresh temporary data folder (sample
 * content on), driven by Debian's chromium (no browser download).
 */
const PORT = Number(process.env.E2E_PORT ?? 4173);
const dataDir = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), `evidence-e2e-${process.pid}`);
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: './e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  globalSetup: './e2e/global-setup.ts',
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [...CHROMIUM_FLAGS],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'node scripts/serve.mjs',
    url: `http://localhost:${PORT}/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    // SIGTERM, so the site stops the PostgreSQL server it started in the data folder (a kill would leave it running).
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    stdout: 'pipe',
    env: {
      PORT: String(PORT),
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      SAMPLE_DATA: 'true',
      INITIAL_SUPER_EMAIL: 'e2e-super@example.test',
      INITIAL_SUPER_PASSWORD: 'e2e super password (test only)',
      // The sample and test records cite example.org: no capture job should try the network while the pages are
      // timed (captures have their own server tests against pages served on loopback).
      CAPTURE_ENABLED: 'false',
      // The suite signs up more accounts from one address than a visitor may in an hour.
      SIGNUP_LIMIT_PER_HOUR: '1000',
      // The suite signs the sample super in with a password alone; the two-factor tests enrol accounts of their own.
      REQUIRE_TWO_FACTOR: 'off',
    },
  },
});
