import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, CATEGORY_SLUGS } from '@app/shared';
import { call, createTestApp, type TestApp } from './helpers';
import { countGallery, galleryQuery } from '../src/modules/records/gallery-query';
import { countRecords, type ListFilter } from '../src/modules/records/list-query';
import { recordCounts } from '../src/db/schema';

const ROWS = 100_000;

/** The list queries the API runs use the partial list indexes and never read the whole table. */
describe('records list queries at 100,000 rows', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    const categories = CATEGORY_SLUGS.map((s) => `'${s}'`).join(',');
    const started = Date.now();
    await t.database.query(`
      insert into records (category, title, description, created_at, public, sample)
      select (array[${categories}])[1 + i % ${CATEGORY_SLUGS.length}],
             'Sample bench record ' || i, 'Test data, not real.',
             now() - make_interval(mins => i), i % 10 <> 0, true
      from generate_series(1, ${ROWS}) as i`);
    // As a server's autovacuum leaves it: the visibility map set, so the list indexes answer pages without the heap.
    await t.database.query('vacuum analyze records');
    console.log(`inserted ${ROWS} records in ${Date.now() - started} ms (${t.database.driver})`);
  });
  afterAll(async () => t.close());

  async function explain(query: { toSQL(): { sql: string; params: unknown[] } }): Promise<string> {
    const { sql, params } = query.toSQL();
    const rows = await t.database.query<Record<string, string>>(`explain ${sql}`, params);
    return rows.map((r) => Object.values(r)[0]).join('\n');
  }

  /**
   * The statement records_list_page (migration 0012) runs for a category's page, read back from the function as the
   * database holds it, with the function's arguments as parameters $1-$5 (category, cursor time and id, limit, offset).
   */
  async function listPageStatement(publicOnly: boolean, cursor: boolean): Promise<string> {
    const [fn] = await t.database.query<{ src: string }>("select prosrc as src from pg_proc where proname = 'records_list_page'");
    const statements = [...fn!.src.matchAll(/RETURN QUERY (SELECT page\.id[\s\S]*?);/g)].map((m) => m[1]!);
    expect(statements).toHaveLength(4);
    const statement = statements.find((s) => /\br\.public\b/.test(s) === publicOnly && s.includes('p_cursor_at') === cursor);
    if (!statement) throw new Error(`records_list_page has no statement for publicOnly=${publicOnly}, cursor=${cursor}`);
    return statement
      .replace(/\bp_category\b/g, '$1')
      .replace(/\bp_cursor_at\b/g, '$2')
      .replace(/\bp_cursor_id\b/g, '$3')
      .replace(/\bp_limit\b/g, '$4')
      .replace(/\bp_offset\b/g, '$5')
      .replace(/\blist_total\b/g, '0::bigint');
  }

  /**
   * The plan of a category's list page as records_list_page runs it: the generic plan, which the function forces
   * (plan_cache_mode) so that PostgreSQL plans each of its statements once per connection.
   */
  async function explainList(filter: Required<ListFilter>, values: Record<string, unknown>, { analyze = false } = {}): Promise<string> {
    const cursor = values.cursorAt !== undefined;
    const statement = await listPageStatement(!filter.includePrivate, cursor);
    const args = [filter.category, values.cursorAt, values.cursorId, values.limit, values.offset];
    await t.database.query('set plan_cache_mode = force_generic_plan');
    await t.database.query(`prepare list_probe(text, timestamptz, uuid, integer, integer) as ${statement}`);
    try {
      const literals = args.map((value) => (value === undefined || value === null ? 'null' : `'${String(value).replace(/'/g, "''")}'`));
      const rows = await t.database.query<Record<string, string>>(`explain ${analyze ? '(analyze) ' : ''}execute list_probe(${literals.join(', ')})`);
      return rows.map((r) => Object.values(r)[0]).join('\n');
    } finally {
      await t.database.query('deallocate list_probe');
      await t.database.query('reset plan_cache_mode');
    }
  }

  const page = { limit: 50, offset: 0 };

  it('records_list_page plans its statements once per connection (forced generic plans)', async () => {
    const [fn] = await t.database.query<{ config: string[] | null }>("select proconfig as config from pg_proc where proname = 'records_list_page'");
    expect(fn?.config).toContain('plan_cache_mode=force_generic_plan');
  });

  it('anonymous lists use records_category_public_list_idx', async () => {
    const plan = await explainList({ category: 'massacres', includePrivate: false }, page);
    console.log(`anonymous list plan:\n${plan}`);
    expect(plan).toMatch(/Index (Only )?Scan using records_category_public_list_idx on records/);
    expect(plan).not.toMatch(/Seq Scan on records/);
  });

  it("a deep page reads the list's index, not the files of the records its offset skips", async () => {
    const plan = await explainList({ category: 'massacres', includePrivate: false }, { limit: 50, offset: 5000 }, { analyze: true });
    expect(plan).toMatch(/records_category_public_list_idx/);
    expect(plan).not.toMatch(/ on media\b|records_pkey/);
    // The page is cut from the index before its rows are written out (to_char per row): the entries the offset skips
    // are never formatted.
    expect(plan).toMatch(/Subquery Scan on page[\s\S]*->\s+Limit[\s\S]*Index Only Scan using records_category_public_list_idx/);
  });

  it('signed-in lists and keyset pages use records_category_list_idx', async () => {
    const plan = await explainList({ category: 'events', includePrivate: true }, page);
    console.log(`signed-in list plan:\n${plan}`);
    expect(plan).toMatch(/Index (Only )?Scan using records_category_list_idx on records/);
    expect(plan).not.toMatch(/Seq Scan on records/);

    const [last] = await t.database.query<{ created_at: Date; id: string }>(
      "select created_at, id from records where category = 'events' and deleted_at is null order by created_at desc, id desc offset 500 limit 1",
    );
    const cursor = { cursorAt: new Date(last!.created_at).toISOString(), cursorId: last!.id };
    const keyset = await explainList({ category: 'events', includePrivate: true }, { ...page, ...cursor });
    console.log(`keyset page plan:\n${keyset}`);
    expect(keyset).toMatch(/Index (Only )?Scan using records_category_list_idx on records[\s\S]*Index Cond: [^\n]*ROW\(created_at, id\) < ROW\(/);
    expect(keyset).not.toMatch(/Sort|Seq Scan on records/);
    // A deep numbered page started from a known position: the same keyset, anonymous, skipping a few entries. Its
    // cursor is a condition of the index scan (no sort, no filter over the whole list).
    const known = await explainList({ category: 'events', includePrivate: false }, { limit: 50, offset: 7, ...cursor });
    expect(known).toMatch(/Index Only Scan using records_category_public_list_idx on records[\s\S]*Index Cond: [^\n]*ROW\(created_at, id\) < ROW\(/);
    expect(known).not.toMatch(/Sort|Seq Scan on records/);
  });

  it('counts from the trigger-kept counters (equal to count(*)), without reading records, and answers a list page quickly', async () => {
    const plan = await explain(t.app.db.select().from(recordCounts));
    expect(plan).not.toMatch(/on records/);
    for (const includePrivate of [false, true]) {
      const [exact] = await t.database.query<{ n: number }>(
        `select count(*)::int as n from records where category = 'victims' and deleted_at is null${includePrivate ? '' : ' and public'}`,
      );
      expect(await countRecords(t.app.db, { category: 'victims', includePrivate })).toBe(exact!.n);
    }
    const [all] = await t.database.query<{ n: number }>('select count(*)::int as n from records where deleted_at is null and public');
    expect(await countRecords(t.app.db, { includePrivate: false })).toBe(all!.n);

    const started = performance.now();
    const res = await call(t.app, { method: 'GET', url: `${API_BASE}/victims?limit=50` });
    const ms = performance.now() - started;
    console.log(`GET /victims?limit=50 over ${ROWS} rows: ${ms.toFixed(1)} ms, X-Total-Count ${res.headers['x-total-count']}`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(50);
    const expected = Array.from({ length: ROWS }, (_, k) => k + 1).filter((i) => i % CATEGORY_SLUGS.length === 0 && i % 10 !== 0).length;
    expect(Number(res.headers['x-total-count'])).toBe(expected);
  });

  it('keeps the counters exact through trash, restore, access, category changes and purge', async () => {
    const exact = async () =>
      t.database.query<{ category: string; visibility: string; n: number }>(`
        select category, 'all' as visibility, count(*)::int as n from records where deleted_at is null group by category
        union all
        select category, 'public', count(*)::int from records where deleted_at is null and public group by category
        order by 1, 2`);
    const counters = async () =>
      t.database.query<{ category: string; visibility: string; n: number }>(
        'select category, visibility, n::int as n from record_counts where n <> 0 order by 1, 2',
      );
    await t.database.query(`update records set deleted_at = now() where id in (select id from records where category = 'massacres' limit 7)`);
    await t.database.query(`update records set public = not public where id in (select id from records where category = 'events' limit 13)`);
    await t.database.query(`update records set deleted_at = null where id in (select id from records where deleted_at is not null limit 3)`);
    await t.database.query(`update records set category = 'orphans' where id in (select id from records where category = 'victims' limit 5)`);
    await t.database.query(`delete from records where id in (select id from records where category = 'links' limit 4)`);
    await t.database.query(`update records set title = title || ' (edited)' where id in (select id from records limit 20)`);
    expect(await counters()).toEqual(await exact());
  });

  it('reads the gallery from media_gallery_idx and keeps its counts exact through record and image changes', async () => {
    // Test rows: one file per 20th record, every 7th a video (never in the gallery), two positions per record.
    await t.database.query(`
      insert into media (record_id, kind, role, position, storage_key, sha256, size, mime)
      select id, case when n % 7 = 0 then 'video' else 'image' end, 'gallery', n % 2, 'originals/te/' || id, 'test', 1, 'image/png'
      from (select id, row_number() over (order by created_at) as n from records) r where n % 20 = 0`);
    await t.database.query('analyze media');
    const galleryCategories = "('victims','massacres','displacements','orphans','missings')";
    /** The gallery as first defined: joined to records at read time. */
    const reference = async (includePrivate: boolean, offset: number) =>
      (
        await t.database.query<{ id: string }>(`
          select m.id from media m join records r on r.id = m.record_id
          where m.kind = 'image' and m.removed_at is null and r.deleted_at is null and r.category in ${galleryCategories}
            ${includePrivate ? '' : 'and r.public'}
          order by r.created_at desc, r.id desc, m.position, m.created_at, m.id limit 50 offset ${offset}`)
      ).map((r) => r.id);
    const exactCount = async (includePrivate: boolean) =>
      (
        await t.database.query<{ n: number }>(`
          select count(*)::int as n from media m join records r on r.id = m.record_id
          where m.kind = 'image' and m.removed_at is null and r.deleted_at is null and r.category in ${galleryCategories}
            ${includePrivate ? '' : 'and r.public'}`)
      )[0]!.n;
    const check = async () => {
      for (const includePrivate of [false, true]) {
        expect(await countGallery(t.app.db, includePrivate)).toBe(await exactCount(includePrivate));
        for (const offset of [0, 1000]) {
          const rows = await galleryQuery(t.app.db, includePrivate, { limit: 50, offset, cursor: null });
          expect(rows.map((r) => r.media.id)).toEqual(await reference(includePrivate, offset));
        }
      }
    };

    const plan = await explain(galleryQuery(t.app.db, false, { ...page, cursor: null }));
    console.log(`gallery plan:\n${plan}`);
    expect(plan).toMatch(/Index Scan using media_gallery_idx on media/);
    expect(plan).not.toMatch(/Seq Scan on (media|records)/);
    expect(await exactCount(false)).toBeGreaterThan(1000);
    await check();

    const withImages = "select record_id from media where kind = 'image' and removed_at is null";
    await t.database.query(`update records set deleted_at = now() where id in (${withImages} limit 9)`);
    await t.database.query(`update records set public = not public where id in (${withImages} offset 20 limit 11)`);
    await t.database.query(`update records set deleted_at = null where id in (select id from records where deleted_at is not null limit 4)`);
    await t.database.query(`update records set category = 'events' where id in (${withImages} offset 40 limit 6)`);
    await t.database.query(`update records set created_at = now() + interval '1 day' where id in (${withImages} offset 60 limit 3)`);
    await t.database.query(`update media set removed_at = now() where id in (select id from media where kind = 'image' limit 8)`);
    await t.database.query(`update media set removed_at = null where id in (select id from media where removed_at is not null limit 2)`);
    await t.database.query(
      `update media set record_id = (select id from records where category = 'victims' and deleted_at is null order by created_at desc limit 1)
       where id in (select id from media where kind = 'image' and removed_at is null offset 100 limit 2)`,
    );
    await t.database.query(`delete from media where id in (select id from media where kind = 'image' offset 200 limit 5)`);
    await t.database.query(`delete from records where id in (${withImages} offset 300 limit 3)`);
    await check();
  });
});
