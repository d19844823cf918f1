import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SearchFilters } from '@app/shared';
import { records } from '../src/db/schema';
import { sqlText } from '../src/db/sql-text';
import { statisticsRows } from '../src/modules/collection/stats-rows';
import { FACET_COLUMNS, FACET_COUNTS } from '../src/modules/search/facets';
import { matchConditions, snippetTextOf } from '../src/modules/search/match';

/** sqlText (db/sql-text.ts) builds the same text and values as drizzle's dialect, or leaves the statement to it. */
describe('sqlText', () => {
  const dialect = new PgDialect();
  // The text and the values, which are what a statement is sent with (the dialect also lists each value's typing).
  const same = (query: ReturnType<typeof sql>) => {
    const { sql: text, params } = dialect.sqlToQuery(query);
    expect(sqlText(dialect, query)).toEqual({ sql: text, params });
  };

  it('builds the search statements as the dialect does: text, values, identifiers, tables, columns', () => {
    const filters = { killingType: ['Invented type One'], q: 'lantern "blue dawn" -river', region: ['amhara', 'unknown'], victimizer: ['Invented group "A"'], category: ['victims', 'massacres'], from: '2020-01-15', to: '2090-02-03', confirmed: 'true' } as SearchFilters;
    for (const includePrivate of [false, true]) {
      const conditions = matchConditions(filters, { includePrivate }, 'text');
      same(sql`select ${FACET_COLUMNS}, ${snippetTextOf(conditions)} from ${records} where ${sql.join(conditions.indexed, sql` and `)} limit ${21}`);
      same(sql`select * from (${statisticsRows({ ...filters, q: undefined }, { includePrivate }).rows}) s, (${FACET_COUNTS(sql`s`)}) f`);
      same(sql`select ${sql.identifier('odd "name"')}, ${null}, ${true}, ${undefined}, ${sql.raw('1')} from ${records} where ${matchConditions(filters, { includePrivate }, 'names').words}`);
    }
  });

  it('leaves to the dialect what it does not build (a value with an encoder, an inlined statement, an object)', () => {
    same(sql`select ${sql.param(5)} + ${2}`);
    same(sql`select ${sql`${'x'}`.inlineParams()} from ${records}`);
    same(sql`select ${new Date('2020-01-01T00:00:00Z')}::timestamptz, ${'after'}`);
    // The values are numbered from one in each statement, whichever way it was built.
    expect(sqlText(dialect, sql`select ${'a'}, ${'b'}`)).toEqual({ sql: 'select $1, $2', params: ['a', 'b'] });
  });
});
