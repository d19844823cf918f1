import { chromium } from 'playwright-core';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { browserAvailable } from '../src/modules/captures/browser';
import { createTestDatabase, sharedChromium, sharedPostgres } from './fixtures/shared';

/** The run's shared fixtures (test/fixtures/global-setup.ts): started once, each test file's database its own. */

async function tablesOf(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = 'public' order by 1`);
    return rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

describe('shared PostgreSQL server', () => {
  it('gives every caller the same server, and each test database is a migrated copy of its own, dropped on request', async () => {
    const [first, second] = await Promise.all([sharedPostgres(), sharedPostgres()]);
    expect(second).toEqual(first);
    const a = await createTestDatabase();
    const b = await createTestDatabase();
    try {
      expect(a.url).not.toBe(b.url);
      expect(await tablesOf(a.url)).toEqual(expect.arrayContaining(['records', 'users', 'audit_log']));
      const client = new pg.Client({ connectionString: a.url });
      await client.connect();
      await client.query(`insert into users (email, first_name, last_name, password_hash, role, active) values ('fixture@example.test', 'Test', 'Fixture', 'x', 'contributor', true)`);
      await client.end();
      const other = new pg.Client({ connectionString: b.url });
      await other.connect();
      const { rows } = await other.query(`select count(*)::int as n from users`);
      await other.end();
      expect(rows[0].n).toBe(0);
    } finally {
      await a.drop();
      await b.drop();
    }
    await expect(tablesOf(a.url)).rejects.toThrow(/does not exist/);
  });
});

const browserPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
describe.skipIf(!browserAvailable(browserPath))('shared Chromium', () => {
  it('is one browser for the run: two connections reach the same process, each with pages of its own', async () => {
    const { wsEndpoint } = await sharedChromium();
    expect((await sharedChromium()).wsEndpoint).toBe(wsEndpoint);
    const [one, two] = await Promise.all([chromium.connect(wsEndpoint), chromium.connect(wsEndpoint)]);
    try {
      const page = await one.newPage();
      await page.setContent('<title>Test content</title><h1>fixture</h1>');
      expect(await page.locator('h1').textContent()).toBe('fixture');
      expect(two.contexts()).toEqual([]);
      expect(two.version()).toBe(one.version());
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});
