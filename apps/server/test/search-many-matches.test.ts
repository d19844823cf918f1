import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, searchFiltersSchema, type SearchResponse } from '@app/shared';
import { rowsOf } from '../src/db';
import { searchRecords, estimate, type SearchLimits } from '../src/modules/search/query';
import { SearchKnowledge } from '../src/modules/search/knowledge';
import { matchConditions } from '../src/modules/search/match';
import { sampleCounts } from '../src/modules/search/sample';
import { searchSamplePredicate } from '../src/db/registry-sql';
import { queryShare, WordFrequencies } from '../src/modules/search/word-frequencies';
import type { SearchCursor } from '../src/modules/search/cursor';
import { call, createTestApp, type TestApp } from './helpers';

/**
 * Searches with more matches than are ranked: the total and facets are estimated from a sample and the hits go newest
 * first, found by reading the newest records a step at a time. The limits are made small here, so a few thousand
 * invented rows (labelled as test data, naming no one) stand for a million. Without words, counts come from record_stats.
 */
const LABEL = 'Test data, not a real record.';
const ROWS = 3000;
const SMALL: SearchLimits = { exactUpTo: 50, sampleRows: 600, walkStep: 40, walkSteps: 2 };
const everyone = { includePrivate: true };

describe('search with many matches', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    // Every row has "crowdword"; one in three is in Afar with perpetrator "Invented group Ω'1" (a quote and a non-ASCII
    // letter, hashed alike by the server and the database); one in five has "sparseword". Row n is about n seconds old.
    await t.app.db.execute(sql`
      insert into records (category, title, description, created_at, updated_at, approved, public, region, victimizer)
      select case when n % 2 = 0 then 'victims' else 'massacres' end, 'Invented record ' || n || ' (test data)',
        ${LABEL} || ' crowdword' || case when n % 5 = 0 then ' sparseword' else '' end,
        -- Microseconds, as real records have them: a cursor that kept only milliseconds would skip or repeat rows.
        timestamptz '2025-01-01 00:00:00+00' - n * interval '1.000123 second', now(), n % 4 = 0, true,
        case when n % 3 = 0 then 'afar' end, case when n % 3 = 0 then ${"Invented group Ω'1"} end
      from generate_series(1, ${ROWS}) as n`);
    await t.app.db.execute(sql`analyze records`);
  });
  afterAll(async () => t?.close());

  const find = (raw: Record<string, unknown>, cursor: SearchCursor | null = null, limit = 20) =>
    searchRecords(t.app.db, { filters: searchFiltersSchema.parse(raw), cursor, limit }, everyone, SMALL);

  /** Every row's id, newest first, as the database has them. */
  async function idsNewestFirst(where = sql`true`): Promise<string[]> {
    const rows = await rowsOf<{ id: string }>(t.app.db, sql`select id from records where deleted_at is null and ${where} order by created_at desc, id desc`);
    return rows.map((r) => r.id);
  }

  it('up to the limit, counts exactly and ranks', async () => {
    const page = await find({ q: 'sparseword', region: ['afar'] });
    // n % 15 == 0: 200 rows, more than 50: not ranked (newest first), and counted exactly since all fit in the sample.
    expect(page).toMatchObject({ total: 200, estimated: false, order: 'newest' });
    const exact = await find({ q: 'sparseword', region: ['afar'], category: ['victims'], confirmed: 'true' });
    // n % 60 == 0: 50 rows, exactly the limit.
    expect(exact).toMatchObject({ total: 50, estimated: false, order: 'relevance' });
    expect(exact.facets.category).toEqual([{ value: 'victims', count: 50 }]);
  });

  it('past the limit, estimates the total and facets from a sample, near the true counts', async () => {
    const page = await find({ q: 'crowdword' });
    expect(page).toMatchObject({ estimated: true, order: 'newest' });
    // 3,000 match; a sample of about 600 rows, scaled, lands near it (seeded: the same answer every time).
    expect(page.total).toBeGreaterThan(ROWS * 0.8);
    expect(page.total).toBeLessThan(ROWS * 1.2);
    const afar = page.facets.region.find((f) => f.value === 'afar')?.count ?? 0;
    expect(afar).toBeGreaterThan((ROWS / 3) * 0.6);
    expect(afar).toBeLessThan((ROWS / 3) * 1.4);
    expect(await find({ q: 'crowdword' })).toEqual(page);
  });

  it('pages newest first through every match once, past the steps it reads and on to the planner', async () => {
    // One in three rows: a step of 40 rows holds about 13, so a page of 20 takes both steps and the rest is asked.
    const expected = await idsNewestFirst(sql`region = 'afar'`);
    const seen: string[] = [];
    let cursor: SearchCursor | null = null;
    for (let i = 0; i < 100; i++) {
      const page = await find({ q: 'crowdword', victimizer: ["Invented group Ω'1"] }, cursor, 40);
      expect(page.order).toBe('newest');
      seen.push(...page.hits.map((hit) => hit.id));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(expected);
  });

  it('without words, counts from record_stats exactly, and pages newest first', async () => {
    const page = await find({ region: ['afar'], victimizer: ["Invented group Ω'1"] });
    expect(page).toMatchObject({ total: ROWS / 3, estimated: false, order: 'newest' });
    expect(page.facets.category).toEqual([
      { value: 'massacres', count: ROWS / 6 },
      { value: 'victims', count: ROWS / 6 },
    ]);
    expect(page.facets.confirmed).toEqual([
      { value: 'false', count: 750 },
      { value: 'true', count: 250 },
    ]);
    expect(page.hits.map((hit) => hit.id)).toEqual((await idsNewestFirst(sql`region = 'afar'`)).slice(0, 20));
    const unknown = await find({ region: ['unknown'] });
    expect(unknown.total).toBe((ROWS * 2) / 3);
  });

  it('the API says when counts are estimates and which order the hits are in', async () => {
    const res = await call(t.app, { method: 'GET', url: `${API_BASE}/search?q=invented` });
    expect(res.status).toBe(200);
    const body = res.body as SearchResponse;
    // 3,000 matches, more than the real limit (1,000) and than a sample reads (2,000): newest first, estimated from the
    // records whose id hashes into an eighth of them.
    expect(body).toMatchObject({ estimated: true, order: 'newest' });
    expect(body.total).toBeGreaterThan(ROWS * 0.8);
    expect(body.total).toBeLessThan(ROWS * 1.2);
    const next = await call(t.app, { method: 'GET', url: `${API_BASE}/search?q=invented&cursor=${body.nextCursor}` });
    expect(next.status).toBe(200);
    expect((next.body as SearchResponse).hits[0]!.record._id).not.toBe(body.hits[0]!.record._id);
  });

  it('no words a visitor types reach the filter terms of the index', async () => {
    // Every Afar row carries the index term region=afar; typed, the words are split at '=' and find no record.
    for (const q of ['region=afar', '"region=afar"', 'confirmed=true', 'category=victims']) {
      const page = await find({ q });
      expect(page.total, q).toBe(0);
    }
  });

  it('knows how common words are from PostgreSQL\'s statistics of the index, without counting', async () => {
    const words = new WordFrequencies(t.app.db);
    expect(words.share('crowdword')).toEqual({ low: 0, high: 1 }); // not read yet: anything
    await words.refresh();
    expect(words.recordCount).toBe(ROWS);
    expect(words.share('crowdword').low).toBeCloseTo(1, 2);
    expect(words.share('sparseword').low).toBeCloseTo(0.2, 2);
    const unknown = words.share('nosuchword');
    expect(unknown.low).toBe(0);
    expect(unknown.high).toBeLessThanOrEqual(words.share('sparseword').low); // below the least share listed
  });

  it('bounds the share a query finds from the shares of its words, read as websearch_to_tsquery reads it', () => {
    const shares: Record<string, number> = { a: 0.5, b: 0.2, c: 0.1 };
    const shareOf = (word: string) => ({ low: shares[word] ?? 0, high: shares[word] ?? 0.01 });
    const near = (share: { low: number; high: number }) => [Number(share.low.toFixed(4)), Number(share.high.toFixed(4))];
    expect(near(queryShare('a b', shareOf))).toEqual([0.1, 0.2]); // both: independent at least, together at most
    // A quoted phrase: its words found together (the rarer one's share), not as if independent.
    expect(near(queryShare('"A B"', shareOf))).toEqual([0.2, 0.2]);
    expect(near(queryShare('"a zz"', shareOf))).toEqual([0, 0.01]);
    expect(near(queryShare('c -"a b"', shareOf))).toEqual([0.08, 0.1]);
    expect(near(queryShare('b or c', shareOf))).toEqual([0.2, 0.3]);
    expect(near(queryShare('a b or c', shareOf))).toEqual([0.1, 0.3]); // a & (b | c)
    expect(near(queryShare('a -b', shareOf))).toEqual([0.4, 0.5]);
    expect(near(queryShare('zz', shareOf))).toEqual([0, 0.01]);
    expect(near(queryShare('', shareOf))).toEqual([0, 0]);
  });

  it('counts many matches in a hashed part of the records and scales them; few, all of them', async () => {
    const { indexed } = matchConditions(searchFiltersSchema.parse({ q: 'crowdword' }), everyone, 'text');
    const all = await sampleCounts(t.app.db, indexed, 5000, null);
    expect(all).toMatchObject({ total: ROWS, estimated: false });
    // More than 100 match: the eighth of the records whose id hashes to 0 holds about 375, the 64th about 47.
    const part = await sampleCounts(t.app.db, indexed, 100, null);
    expect(part.estimated).toBe(true);
    // Exactly the 64th's own count, scaled and kept to two significant digits. How far that lands from ROWS is chance
    // (random ids: about 47 +- 7 records, so bounds of half and one and a half failed about one run in ten).
    const [inPart] = await rowsOf<{ n: number }>(t.app.db, sql.raw(`select count(*)::int as n from records where deleted_at is null and ${searchSamplePredicate(64)}`));
    expect(part.total).toBe(estimate(inPart!.n * 64));
    expect(part.total).toBeGreaterThan(ROWS * 0.25);
    expect(part.total).toBeLessThan(ROWS * 2);
    expect(part.total % 10).toBe(0); // two significant digits
  });

  it('a search its statistics say has many matches is estimated without counting them first', async () => {
    const knowledge = new SearchKnowledge(t.app.db);
    await knowledge.words.refresh();
    const statements: string[] = [];
    const db = Object.create(t.app.db) as typeof t.app.db;
    db.execute = ((query: Parameters<typeof t.app.db.execute>[0]) => {
      statements.push((t.app.db as any).dialect.sqlToQuery(query).sql);
      return t.app.db.execute(query);
    }) as typeof t.app.db.execute;
    // Prepared statements (db preparedSqlRows) go to the driver's client directly: seen there, and run unnamed.
    const client = (t.app.db as any).$client;
    (db as any).$client = {
      query: (text: string, values: unknown[]) => {
        statements.push(text);
        return client.query(text, values);
      },
    };
    const page = await searchRecords(db, { filters: searchFiltersSchema.parse({ q: 'crowdword' }), cursor: null, limit: 20 }, everyone, SMALL, knowledge);
    expect(page).toMatchObject({ estimated: true, order: 'newest' });
    expect(page.hits).toHaveLength(20);
    // No statement ranked the matches (the exact search's row_number), nor counted them to the limit.
    expect(statements.filter((text) => text.includes('row_number()'))).toEqual([]);
    expect(statements.some((text) => text.includes(' as passed'))).toBe(true); // the newest-first walk, seen
    // A rare word is still counted and ranked.
    const rare = await searchRecords(db, { filters: searchFiltersSchema.parse({ q: 'sparseword', region: ['afar'], category: ['victims'], confirmed: 'true' }), cursor: null, limit: 20 }, everyone, SMALL, knowledge);
    expect(rare).toMatchObject({ total: 50, estimated: false, order: 'relevance' });
    expect(statements.some((text) => text.includes('row_number()'))).toBe(true);
  });

  it('rounds estimates to two significant digits', () => {
    expect(estimate(0.4)).toBe(1);
    expect(estimate(87.6)).toBe(88);
    expect(estimate(20_834)).toBe(21_000);
    expect(estimate(976_543)).toBe(980_000);
  });

  /** A database handle that notes the text of every statement it runs, prepared or not. */
  function noting(statements: string[]) {
    const db = Object.create(t.app.db) as typeof t.app.db;
    db.execute = ((query: Parameters<typeof t.app.db.execute>[0]) => {
      statements.push((t.app.db as any).dialect.sqlToQuery(query).sql);
      return t.app.db.execute(query);
    }) as typeof t.app.db.execute;
    const client = (t.app.db as any).$client;
    (db as any).$client = {
      query: (text: string, values: unknown[]) => {
        statements.push(text);
        return client.query(text, values);
      },
    };
    return db;
  }

  it('words in nearly every record are counted from record_stats, scaled, without reading a record', async () => {
    const knowledge = new SearchKnowledge(t.app.db);
    await knowledge.words.refresh();
    const statements: string[] = [];
    const page = await searchRecords(noting(statements), { filters: searchFiltersSchema.parse({ q: 'crowdword' }), cursor: null, limit: 20 }, everyone, SMALL, knowledge);
    // Every row holds the word: the filters' counts are the words' counts, flagged as estimates.
    expect(page).toMatchObject({ total: ROWS, estimated: true, order: 'newest' });
    expect(page.facets.region).toContainEqual({ value: 'afar', count: ROWS / 3 });
    expect(page.hits.map((hit) => hit.id)).toEqual((await idsNewestFirst()).slice(0, 20));
    expect(statements.filter((text) => text.includes('hashtext('))).toEqual([]); // no sample read
    // A word in a fifth of the rows is still counted in the records (a hashed part of them).
    statements.length = 0;
    const sparse = await searchRecords(noting(statements), { filters: searchFiltersSchema.parse({ q: 'sparseword' }), cursor: null, limit: 20 }, everyone, SMALL, knowledge);
    expect(sparse.estimated).toBe(true);
    expect(statements.some((text) => text.includes('hashtext('))).toBe(true);
  });

  it('filters that leave no record find nothing without a statement, and find a record added to them', async () => {
    const knowledge = new SearchKnowledge(t.app.db);
    const statements: string[] = [];
    const filters = searchFiltersSchema.parse({ q: 'crowdword', region: ['tigray'] });
    const page = await searchRecords(noting(statements), { filters, cursor: null, limit: 20 }, everyone, SMALL, knowledge);
    expect(page).toMatchObject({ total: 0, estimated: false, hits: [] });
    // Only record_stats was read (the filters' count): no search of the text, and no names tried.
    expect(statements.filter((text) => !text.includes('record_stats'))).toEqual([]);
    const url = `${API_BASE}/search?q=crowdword&region=tigray`;
    expect(((await call(t.app, { method: 'GET', url })).body as SearchResponse).total).toBe(0);
    await t.app.db.execute(sql`insert into records (category, title, description, approved, public, region)
      values ('victims', 'Invented record in Tigray (test data)', ${LABEL} || ' crowdword', true, true, 'tigray')`);
    // As a write does after its commit: the response cache and the filters' counts are forgotten.
    t.app.contentChanged({ area: 'records' });
    const after = (await call(t.app, { method: 'GET', url })).body as SearchResponse;
    expect(after.total).toBe(1);
    await t.app.db.execute(sql`delete from records where title = 'Invented record in Tigray (test data)'`);
    t.app.contentChanged({ area: 'records' });
  });
});
