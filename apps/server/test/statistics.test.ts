import { describe, expect, it } from 'vitest';
import { API_BASE, searchFiltersSchema, type SearchFilters, type StatisticsResponse } from '@app/shared';
import { call } from './helpers';
import { useTestApp } from './fixtures/app';
import { computeStatistics } from '../src/modules/statistics/queries';

/** Statistics (GET /statistics) and the trigger-kept counts they read (record_stats). Every record is test data. */
describe('statistics', () => {
  const { t, owner, admin, superUser } = useTestApp({ owner: 'contributor', admin: 'admin', superUser: 'super' });
  const url = (path: string) => `${API_BASE}${path}`;

  async function create(category: string, fields: Record<string, string>) {
    const res = await call(t.app, {
      method: 'POST',
      url: url(`/${category}`),
      headers: owner.auth,
      payload: { title: `Test ${category} (test data)`, description: 'Test data, not a real record.', ...fields },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { _id: string; category: string };
  }

  const anonymous = async (query = '') => {
    const res = await call(t.app, { method: 'GET', url: url(`/statistics${query}`) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as StatisticsResponse;
  };
  const signedIn = async (query = '') => {
    const res = await call(t.app, { method: 'GET', url: url(`/statistics${query}`), headers: owner.auth });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as StatisticsResponse;
  };
  const countOf = (s: StatisticsResponse, category: string) => s.categories.find((c) => c.category === category)!.count;
  const regionCount = (s: StatisticsResponse, region: string) => s.regions.find((r) => r.region === region)!.count;

  /**
   * record_stats must equal a GROUP BY over the live records, written here on its own rather than with the trigger's
   * expressions, so a mistake in the trigger cannot hide in the test.
   */
  async function expectAggregateExact() {
    const differences = await t.database.query<Record<string, unknown>>(`
      with truth as (
        select r.category, v.visibility, coalesce(r.region, '') as region,
          coalesce(to_char(coalesce(r.happened_on, r.start_at) at time zone 'UTC', 'YYYY-MM'), '') as month,
          coalesce(r.victimizer, '') as victimizer, coalesce(r.killing_type, '') as killing_type, r.approved as confirmed,
          count(*)::bigint as n, coalesce(sum(r.quantity), 0)::bigint as quantity
        from records r join (values ('all'), ('public')) as v(visibility) on v.visibility = 'all' or r.public
        where r.deleted_at is null
        group by 1, 2, 3, 4, 5, 6, 7
      ), kept as (select * from record_stats where n <> 0 or quantity <> 0)
      select * from truth full join kept using (category, visibility, region, month, victimizer, killing_type, confirmed)
      where truth.n is distinct from kept.n or truth.quantity is distinct from kept.quantity`);
    expect(differences).toEqual([]);
  }

  const liveCounts = async (filters: SearchFilters | Record<string, never>, includePrivate = false) =>
    (await computeStatistics(t.app.db, searchFiltersSchema.parse(filters), { includePrivate }, 'live')).statistics;

  it('counts the records created through the API: per category, people killed, month, region, perpetrator', async () => {
    const massacres = [
      { quantity: '12', region: 'amhara', victimizer: 'Test perpetrator A', happenedOn: '2021-03-04T05:06:07' },
      { quantity: '30', region: 'afar', victimizer: 'Test perpetrator B', happenedOn: '2021-03-20T10:00:00' },
      { quantity: '7', region: 'amhara', victimizer: 'Test perpetrator A', happenedOn: '2022-07-01T00:00:00' },
    ];
    for (const m of massacres) await create('massacres', { ...m, killingType: 'Test type', location: 'Test place' });
    const victims: Record<string, string>[] = [
      { fullName: 'Test person one', region: 'amhara', victimizer: 'Test perpetrator A', happenedOn: '2021-03-05T00:00:00' },
      { fullName: 'Test person two', victimizer: 'Test perpetrator B', happenedOn: '2022-01-15T00:00:00' },
    ];
    for (const v of victims) await create('victims', v);
    await create('displacements', { quantity: '100', location: 'Test place' });

    const s = await anonymous();
    expect(s.total).toBe(massacres.length + victims.length + 1);
    expect(countOf(s, 'massacres')).toBe(massacres.length);
    expect(countOf(s, 'victims')).toBe(victims.length);
    expect(countOf(s, 'displacements')).toBe(1);
    expect(s.killed).toEqual({ massacreDeaths: massacres.reduce((n, m) => n + Number(m.quantity), 0), victimRecords: victims.length });
    expect(regionCount(s, 'amhara')).toBe([...massacres, ...victims].filter((r) => r.region === 'amhara').length);
    expect(regionCount(s, 'afar')).toBe(1);
    // The second victim and the displacement name no region.
    expect(regionCount(s, 'unknown')).toBe(2);
    const months = new Map<string, number>();
    for (const r of [...massacres, ...victims]) months.set(r.happenedOn!.slice(0, 7), (months.get(r.happenedOn!.slice(0, 7)) ?? 0) + 1);
    expect(s.months).toEqual([...months].sort().map(([month, count]) => ({ month, count })));
    expect(s.undated).toBe(1);
    expect(s.victimizers).toEqual([
      { victimizer: 'Test perpetrator A', count: 3 },
      { victimizer: 'Test perpetrator B', count: 2 },
      { victimizer: null, count: 1 },
    ]);
    expect(s).toEqual(await liveCounts({}));
    await expectAggregateExact();
  });

  it('never counts private or trashed records anonymously; signed-in readers count private ones, nobody trashed ones', async () => {
    const before = await anonymous();
    const hidden = await create('massacres', { quantity: '40', region: 'tigray', happenedOn: '2023-02-02T00:00:00' });
    const hide = await call(t.app, { method: 'PUT', url: url(`/massacres/${hidden._id}/access`), headers: admin.auth });
    expect(hide.body.public).toBe(false);

    const anon = await anonymous();
    expect(anon.total).toBe(before.total);
    expect(anon.killed.massacreDeaths).toBe(before.killed.massacreDeaths);
    expect(regionCount(anon, 'tigray')).toBe(0);
    expect(anon.months.some((m) => m.month === '2023-02')).toBe(false);
    const mine = await signedIn();
    expect(mine.total).toBe(before.total + 1);
    expect(mine.killed.massacreDeaths).toBe(before.killed.massacreDeaths + 40);
    expect(regionCount(mine, 'tigray')).toBe(1);
    // Filtered too: a filter naming the private record's region finds nothing anonymously.
    expect((await anonymous('?region=tigray')).total).toBe(0);
    expect((await signedIn('?region=tigray')).total).toBe(1);

    const trashedOne = await create('victims', { fullName: 'Test person trashed', region: 'gambela' });
    expect((await anonymous()).total).toBe(before.total + 1);
    const trashed = await call(t.app, { method: 'DELETE', url: url(`/victims/${trashedOne._id}/delete`), headers: owner.auth });
    expect(trashed.status).toBe(200);
    expect((await anonymous()).total).toBe(before.total);
    expect((await signedIn()).total).toBe(before.total + 1);
    expect(regionCount(await signedIn(), 'gambela')).toBe(0);
    expect(await signedIn()).toEqual(await liveCounts({}, true));
    await expectAggregateExact();
  });

  it('keeps record_stats exact through create, edit of region and date, category and visibility changes, trash, restore and purge', async () => {
    const record = await create('massacres', { quantity: '5', region: 'oromia', victimizer: 'Test perpetrator C', happenedOn: '2020-05-05T00:00:00' });
    await expectAggregateExact();
    const edited = await call(t.app, {
      method: 'PUT',
      url: url(`/massacres/${record._id}/edit`),
      headers: owner.auth,
      payload: { region: 'somali', quantity: '9', happenedOn: '2020-06-01T00:00:00', victimizer: 'Test perpetrator D' },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await expectAggregateExact();
    expect(regionCount(await anonymous(), 'somali')).toBe(1);
    expect(regionCount(await anonymous(), 'oromia')).toBe(0);

    // An edit that changes nothing counted, and approval (the "confirmed" filter).
    await call(t.app, { method: 'PUT', url: url(`/massacres/${record._id}/edit`), headers: owner.auth, payload: { subtitle: 'Test subtitle' } });
    await expectAggregateExact();
    expect((await call(t.app, { method: 'PUT', url: url(`/massacres/approve/${record._id}`), headers: admin.auth })).status).toBe(200);
    await expectAggregateExact();
    expect((await anonymous('?confirmed=true')).total).toBe(1);

    // The API never moves a record to another category; the trigger must still follow one that is moved.
    await t.database.query(`update records set category = 'victims' where id = $1`, [record._id]);
    await expectAggregateExact();
    // One statement changing many rows (bulk region and visibility changes).
    await t.database.query(`update records set region = 'harari', public = not public where category = 'massacres' and deleted_at is null`);
    await expectAggregateExact();
    await t.database.query(`update records set public = true where category = 'massacres' and deleted_at is null`);
    await expectAggregateExact();

    const hide = await call(t.app, { method: 'PUT', url: url(`/massacres/${record._id}/access`), headers: admin.auth });
    expect(hide.status).toBe(404); // it is a victim record now
    await t.database.query(`update records set category = 'massacres' where id = $1`, [record._id]);
    expect((await call(t.app, { method: 'PUT', url: url(`/massacres/${record._id}/access`), headers: admin.auth })).body.public).toBe(false);
    await expectAggregateExact();

    expect((await call(t.app, { method: 'DELETE', url: url(`/massacres/${record._id}/delete`), headers: owner.auth })).status).toBe(200);
    await expectAggregateExact();
    expect((await call(t.app, { method: 'PUT', url: url(`/trash/${record._id}/restore`), headers: admin.auth })).status).toBe(200);
    await expectAggregateExact();
    expect((await call(t.app, { method: 'DELETE', url: url(`/massacres/${record._id}/delete`), headers: owner.auth })).status).toBe(200);
    expect((await call(t.app, { method: 'DELETE', url: url(`/trash/${record._id}`), headers: superUser.auth })).status).toBe(200);
    await expectAggregateExact();
    // A delete of a live record (not through the trash) also leaves the counts exact.
    await t.database.query(`delete from records where category = 'displacements'`);
    await expectAggregateExact();
  });

  it('answers filtered statistics from record_stats equal to counting the records, whole and partial months alike', async () => {
    const filterSets: Record<string, unknown>[] = [
      {},
      { region: ['amhara'] },
      { region: ['unknown', 'afar'] },
      { category: ['massacres', 'victims'] },
      { victimizer: ['Test perpetrator A'] },
      { killingType: ['Test type'] },
      { confirmed: 'false' },
      { confirmed: 'true' },
      { from: '2021-03-01' },
      { to: '2021-12-31' },
      { from: '2021-03-05', to: '2022-01-20' },
      { from: '2021-03-05', to: '2021-03-19' },
      { from: '2021-03-01', to: '2021-03-04' },
      { from: '2021-03-20', to: '2021-04-30' },
      { to: '2021-03-04' },
      { from: '2022-07-02' },
      { from: '2021-01-01', to: '2022-12-31', region: ['amhara'], victimizer: ['Test perpetrator A'] },
    ];
    for (const raw of filterSets) {
      const filters = searchFiltersSchema.parse(raw);
      for (const includePrivate of [false, true]) {
        const aggregate = await computeStatistics(t.app.db, filters, { includePrivate });
        expect(aggregate.source, JSON.stringify(raw)).toBe('aggregate');
        expect(aggregate.statistics, JSON.stringify(raw)).toEqual(await liveCounts(filters, includePrivate));
      }
    }
    // A filter actually filters: the region's count is the total of the region-filtered answer.
    const all = await anonymous();
    expect((await anonymous('?region=amhara')).total).toBe(regionCount(all, 'amhara'));
    expect((await anonymous('?from=2021-03-05&to=2021-03-19')).total).toBeGreaterThan(0);
    expect((await anonymous('?from=2021-03-05&to=2021-03-19')).total).toBeLessThan(all.total);
  });

  it('counts live when words are given, with the same filters', async () => {
    const worded = await create('victims', { fullName: 'Test person ሙከራ', region: 'amhara', happenedOn: '2021-08-08T00:00:00' });
    const filters = searchFiltersSchema.parse({ q: 'ሙከራ' });
    const answer = await computeStatistics(t.app.db, filters, { includePrivate: false });
    expect(answer.source).toBe('live');
    const s = await anonymous(`?q=${encodeURIComponent('ሙከራ')}`);
    expect(s.total).toBe(1);
    expect(s.categories.find((c) => c.category === worded.category)?.count).toBe(1);
    expect((await anonymous(`?q=${encodeURIComponent('ሙከራ')}&region=afar`)).total).toBe(0);
  });

  it('refuses bad filters with 400 and field errors keyed by field name', async () => {
    const bad = [
      ['?region=nowhere', 'region'],
      ['?category=unicorns', 'category'],
      ['?from=2021-02-30', 'from'],
      ['?from=2021-05-01&to=2021-04-01', 'to'],
      ['?confirmed=maybe', 'confirmed'],
      [`?q=${'x'.repeat(201)}`, 'q'],
    ] as const;
    for (const [query, field] of bad) {
      const res = await call(t.app, { method: 'GET', url: url(`/statistics${query}`) });
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body), query).toContain(field);
    }
  });

  it('serves anonymous answers from the public cache under one key per filter set, cleared by writes', async () => {
    const first = await call(t.app, { method: 'GET', url: url('/statistics?region=amhara&region=afar&utm_source=x') });
    const second = await call(t.app, { method: 'GET', url: url('/statistics?region=afar&region=amhara') });
    expect(second.headers.etag).toBe(first.headers.etag);
    const other = await call(t.app, { method: 'GET', url: url('/statistics?region=afar') });
    expect(other.headers.etag).not.toBe(first.headers.etag);
    const signed = await call(t.app, { method: 'GET', url: url('/statistics'), headers: owner.auth });
    expect(signed.headers['cache-control']).toBe('private, no-cache');

    await create('victims', { fullName: 'Test person cached', region: 'afar' });
    const after = await call(t.app, { method: 'GET', url: url('/statistics?region=afar&region=amhara') });
    expect(after.headers.etag).not.toBe(first.headers.etag);
    expect(after.body.total).toBe(first.body.total + 1);
  });

  it('is described in the OpenAPI document with the filters as query parameters', async () => {
    const doc = await call(t.app, { method: 'GET', url: '/api/docs/json' });
    expect(doc.status).toBe(200);
    const operation = doc.body.paths[`${API_BASE}/statistics`]?.get;
    expect(operation?.summary).toMatch(/per region/);
    const names = (operation?.parameters ?? []).map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(['q', 'category', 'region', 'victimizer', 'killingType', 'from', 'to', 'confirmed']));
  });
});
