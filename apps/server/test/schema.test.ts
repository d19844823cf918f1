import { getTableColumns } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_DATA_FIELD_NAMES } from '@app/shared';
import { openDatabase, type Database } from '../src/db';
import { records } from '../src/db/schema';

const SCHEMA_QUERY = `
  select table_name, column_name, data_type, is_nullable, coalesce(column_default, '') as column_default
  from information_schema.columns where table_schema = 'public' order by table_name, column_name`;
const INDEX_QUERY = `select tablename, indexname, indexdef from pg_indexes where schemaname = 'public' order by indexname`;

describe('database schema', () => {
  let pglite: Database;
  beforeAll(async () => {
    pglite = await openDatabase({});
  });
  afterAll(async () => pglite.close());

  it('has a records column for every data field of the category registry', () => {
    const columns = Object.keys(getTableColumns(records));
    for (const name of ALL_DATA_FIELD_NAMES) expect(columns, `records.${name}`).toContain(name);
  });

  it('indexes every list order', async () => {
    const rows = await pglite.query<{ indexname: string }>(INDEX_QUERY);
    const names = rows.map((r) => r.indexname);
    expect(names).toEqual(expect.arrayContaining(['records_category_list_idx', 'records_category_public_list_idx', 'records_news_idx']));
  });

  // Runs in the PostgreSQL suite (TEST_PG_URL set by scripts/test-pg.mjs and CI).
  it.runIf(Boolean(process.env.TEST_PG_URL))('is the same on PGlite and PostgreSQL', async () => {
    const pg = await import('pg');
    const base = process.env.TEST_PG_URL!;
    const name = `schema_${Date.now().toString(36)}`;
    const admin = new pg.default.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    const postgres = await openDatabase({ databaseUrl: url.toString() });
    try {
      expect(await postgres.query(SCHEMA_QUERY)).toEqual(await pglite.query(SCHEMA_QUERY));
      const normalise = (rows: Record<string, unknown>[]) => rows.map((r) => ({ ...r, indexdef: String(r.indexdef).replace(/\s+/g, ' ') }));
      expect(normalise(await postgres.query(INDEX_QUERY))).toEqual(normalise(await pglite.query(INDEX_QUERY)));
    } finally {
      await postgres.close();
      await admin.query(`drop database ${name} with (force)`);
      await admin.end();
    }
  });
});
