import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedSqlRows, rowsOf, type Database } from '../src/db';
import { freshDatabase } from './helpers';

/**
 * Statements prepared under a name of their text (PostgreSQL: parsed once per connection, planned once when a generic
 * plan serves) answer as the same statement sent unnamed, for every value, past the executions after which PostgreSQL
 * may switch to its generic plan. Runs on PGlite (unnamed there) and, with TEST_PG_URL, on PostgreSQL.
 */
describe('prepared statements of a drizzle text', () => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ database, drop } = await freshDatabase(2));
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  const statement = (word: string, limit: number) =>
    sql`select w, length(w)::int as n, json_build_object('w', w) as j
      from unnest(string_to_array(${`alpha beta gamma ${word} delta`}, ' ')) as w
      where w <> ${'beta'} order by w limit ${limit}`;

  it('answers as the unnamed statement, value after value', async () => {
    for (let i = 0; i < 12; i++) {
      const query = statement(`word${i}`, 1 + (i % 4));
      const prepared = await preparedSqlRows<{ w: string; n: number; j: { w: string } }>(database.db, query);
      expect(prepared).toEqual(await rowsOf(database.db, statement(`word${i}`, 1 + (i % 4))));
      expect(prepared).toHaveLength(1 + (i % 4));
      expect(prepared[0]).toEqual({ w: 'alpha', n: 5, j: { w: 'alpha' } });
    }
  });

  it('answers a generic-plan statement as the unnamed statement, value after value', async () => {
    for (let i = 0; i < 8; i++) {
      const prepared = await preparedSqlRows(database.db, statement(`generic${i}`, 1 + (i % 3)), 'generic');
      expect(prepared).toEqual(await rowsOf(database.db, statement(`generic${i}`, 1 + (i % 3))));
    }
  });

  it.runIf(process.env.TEST_PG_URL)('plans a generic-plan statement once, generically, and leaves the others to plan per value', async () => {
    const setting = sql`select current_setting('plan_cache_mode') as mode, current_setting('jit') as jit, ${'x'}::text as x`;
    expect(await preparedSqlRows(database.db, setting, 'generic')).toEqual([{ mode: 'force_generic_plan', jit: 'off', x: 'x' }]);
    expect(await preparedSqlRows(database.db, sql`select current_setting('plan_cache_mode') as mode, ${'y'}::text as y`)).toEqual([{ mode: 'auto', y: 'y' }]);
    // The statement of the first test, run again with the generic plan: its name's plans, on the connection that ran it.
    const counted = sql`select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements
      where statement like ${'%string_to_array%'} and ${'z'}::text = 'z'`;
    for (let i = 0; i < 3; i++) await preparedSqlRows(database.db, statement(`again${i}`, 2), 'generic');
    const plans = await preparedSqlRows<{ generic: number; custom: number }>(database.db, counted, 'generic');
    expect(plans.length).toBeGreaterThan(0);
    for (const row of plans) expect(row.custom).toBe(0);
    expect(plans.reduce((sum, row) => sum + row.generic, 0)).toBeGreaterThan(0);
  });

  it('runs statements of other texts, each under its own name', async () => {
    const other = await preparedSqlRows<{ x: number }>(database.db, sql`select ${41}::int + 1 as x`);
    expect(other).toEqual([{ x: 42 }]);
    expect(await preparedSqlRows<{ x: string }>(database.db, sql`select ${'a'}::text || 'b' as x`)).toEqual([{ x: 'ab' }]);
  });
});
