#!/usr/bin/env node
// The server suite against PostgreSQL (and Redis for shared rate limits): every test file gets a fresh database
// created from TEST_PG_URL and dropped afterwards (apps/server/test/helpers.ts).
import { spawnSync } from 'node:child_process';

const env = {
  ...process.env,
  TEST_PG_URL: process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
};
// Files about the embedded server start their own (DATABASE_URL empty) whatever TEST_PG_URL says: `npm test` runs them,
// and here they ran the same again (108 s of test time; the suite's wall time went from 349 s to 304 s without them).
const EMBEDDED_ONLY = ['test/embedded-server.test.ts', 'test/migrate-from-pglite.test.ts', 'test/database-faults-embedded.test.ts', 'test/database-faults-postgres.test.ts'];
// Files that touch no database and no Redis (processes, builds, pure functions): their results cannot differ here, and
// start-signals alone builds the site and starts it three times.
const NO_DATABASE = [
  'test/build-stamp.test.ts',
  'test/capture-udp.test.ts',
  'test/code-shape.test.ts',
  'test/compression.test.ts',
  'test/config.test.ts',
  'test/deploy-files.test.ts',
  'test/etag.test.ts',
  'test/search-snippet.test.ts',
  'test/search-snippet-cache.test.ts',
  'test/sql-text.test.ts',
  'test/start-signals.test.ts',
  'test/storage.test.ts',
  'test/timestamping.test.ts',
  'test/security/jwt.test.ts',
];
const extra = process.argv.slice(2);
const excluded = [...EMBEDDED_ONLY, ...NO_DATABASE].flatMap((file) => ['--exclude', file]);
const result = spawnSync('npx', ['vitest', 'run', '--project', 'server', ...excluded, ...extra], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
