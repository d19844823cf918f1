import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { openDatabase, type Database } from '../src/db';
import { users } from '../src/db/schema';
import { hashPassword } from '../src/services/passwords';
import type { Role } from '@app/shared';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  dataDir: string;
  close: () => Promise<void>;
}

/**
 * A migrated, empty database: in-memory PGlite by default, or a new PostgreSQL database when TEST_PG_URL is set (the
 * CI PostgreSQL suite); `drop` removes that one again (call it after closing the database).
 */
export async function freshDatabase(poolSize: number): Promise<{ database: Database; url: string | null; drop: () => Promise<void> }> {
  const baseUrl = process.env.TEST_PG_URL;
  if (!baseUrl) return { database: await openDatabase({}), url: null, drop: async () => {} };
  const name = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const run = async (statement: string) => {
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(statement);
    await admin.end();
  };
  await run(`create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize });
  return { database, url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

/**
 * A fresh app on a fresh database: in-memory PGlite by default, or a new PostgreSQL database (dropped at the end)
 * when TEST_PG_URL is set (the CI PostgreSQL suite). Share one per test file; PGlite start-up takes seconds.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: { webDistDir?: string; webSsrDir?: string; /** Pino options (e.g. a stream that keeps the lines); none by default. */ logger?: object } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'evidence-test-'));
  // The suites sign staff in with a password alone; two-factor tests turn REQUIRE_TWO_FACTOR on for themselves.
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', JWT_SECRET: 'x'.repeat(40), REQUIRE_TWO_FACTOR: 'off', ...env });
  const { database, url, drop } = await freshDatabase(4);
  if (url) config.DATABASE_URL = url;
  const app = await buildApp({ config, database, runJobs: false, logger: false, ...options });
  await app.ready();
  return {
    app,
    database,
    config,
    dataDir,
    close: async () => {
      await app.close();
      await database.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let userCounter = 0;

/** Inserts an active user of `role` and returns it with a valid bearer token. */
export async function createUser(app: FastifyInstance, role: Role = 'contributor', password = 'correct horse battery staple') {
  userCounter++;
  const email = `user${userCounter}-${Math.random().toString(36).slice(2, 7)}@example.test`;
  const [user] = await app.db
    .insert(users)
    .values({ email, firstName: 'Test', lastName: `User${userCounter}`, passwordHash: await hashPassword(password), role, active: true })
    .returning();
  const { token, sid } = await app.sessions.start(user!, { userAgent: 'Test', ip: '127.0.0.1' });
  return { ...user!, password, token, sid, auth: { authorization: `Bearer ${token}` } };
}

/** app.inject with a JSON body parsed for the assertion. */
export async function call(app: FastifyInstance, options: InjectOptions) {
  const res = await app.inject(options);
  let body: unknown = undefined;
  try {
    body = res.json();
  } catch {
    body = res.body;
  }
  return { status: res.statusCode, headers: res.headers, body: body as any, raw: res };
}
