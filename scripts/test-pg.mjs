#!/usr/bin/env node
// The server suite against PostgreSQL (and Redis for shared rate limits): every test file gets a fresh database
// created from TEST_PG_URL and dropped afterwards (apps/server/test/helpers.ts).
import { spawnSync } from 'node:child_process';

const env = {
  ...process.env,
  TEST_PG_URL: process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
};
const extra = process.argv.slice(2);
const result = spawnSync('npx', ['vitest', 'run', '--project', 'server', ...extra], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
