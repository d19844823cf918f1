import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, type DuplicateCandidate, type DuplicatePair, type RecordDto } from '@app/shared';
import { records } from '../src/db/schema';
import { scanQueue } from '../src/modules/duplicates/scan';
import { seedSampleContent } from '../src/seed/sample';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { multipart, testImage } from './records-helpers';

type User = Awaited<ReturnType<typeof createUser>>;

/**
 * Made-up test names: a given name with the surname ሙከራ (Mukera, "test") or ናሙና (Namuna, "sample"). Each pair is a
 * stored name and a name asked about, and whether the check must find the stored record: Ge'ez against Latin, spelling
 * variants (q for k, doubled letters, a vowel written or not), word order; and names of different people.
 */
const PAIRS: [stored: string, asked: string, same: boolean][] = [
  ['ተስፋዬ ሙከራ', 'Tesfaye Mukera', true],
  ['አበበ ናሙና', 'Abebe Namuna', true],
  ['ጌታቸው ሙከራ', 'Getachew Mukera', true],
  ['ዓለሙ ናሙና', 'Alemu Namuna', true],
  ['ቀለመወርቅ ሙከራ', 'Kelemework Mukera', true],
  ['ቀለመወርቅ ሙከራ', 'Qelemework Mukera', true],
  ['Abebe Namuna', 'Abbebe Namuna', true],
  ['Tesfaye Mukera', 'Tesfaie Mukera', true],
  ['Mulugeta Namuna', 'ሙሉጌታ ናሙና', true],
  ['Haile Mukera', 'ኃይሌ ሙከራ', true],
  ['Almaz Namuna', 'ALMAZ NAMUNA', true],
  ['Birtukan Mukera', 'ብርቱካን ሙከራ', true],
  ['Yohannes Namuna', 'Yohanes Namuna', true],
  ['ሰላም ሙከራ', 'Selam Mukera', true],
  ['Mekonnen Namuna', 'መኮንን ናሙና', true],
  ['Namuna Tigist', 'Tigist Namuna', true],
  ['Zewditu Mukera', 'ዘውዲቱ ሙከራ', true],
  ['Worku Namuna', 'ወርቁ ናሙና', true],
  ['Desta Mukera', 'Dessta Mukera', true],
  ['ፀሐይ ናሙና', 'Tsehay Namuna', true],
  ['ጽጌ ሙከራ', 'Tsige Mukera', true],
  ['Tesfaye Mukera', 'Almaz Namuna', false],
  ['ተስፋዬ ሙከራ', 'Yohannes Namuna', false],
  ['Mulugeta Namuna', 'Mulu Mukera', false],
  ['Birtukan Mukera', 'Selam Mukera', false],
  ['ሰላም ሙከራ', 'ሳሙኤል ናሙና', false],
  ['Worku Namuna', 'Zewditu Mukera', false],
  ['Desta Mukera', 'Kelemework Mukera', false],
  ['Haile Mukera', 'Hailu Namuna', false],
  ['ጌታቸው ሙከራ', 'Getnet Namuna', false],
  ['Almaz Namuna', 'Alemu Mukera', false],
  ['Tigist Namuna', 'Tesfaye Namuna', false],
  ['Abebe Mukera', 'Getachew Mukera', false],
];

describe('duplicate people', () => {
  let t: TestApp;
  let contributor: User;
  let admin: User;
  /** The stored record of each pair, by its index in PAIRS. */
  const stored: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    contributor = await createUser(t.app, 'contributor');
    admin = await createUser(t.app, 'admin');
    // The sample content of a fresh site, which shows one made-up person recorded twice.
    await seedSampleContent({ db: t.app.db, media: t.app.media, audit: t.app.audit, log: t.app.log });
    const rows = await t.app.db
      .insert(records)
      .values(PAIRS.map(([name], i) => ({ category: 'victims', title: `Test victim ${i} (test data)`, fullName: name, description: 'Test data, not a real person.' })))
      .returning({ id: records.id });
    stored.push(...rows.map((r) => r.id));
  });
  afterAll(async () => t.close());

  const check = async (category: string, query: Record<string, string>, user: User | null = contributor) => {
    const res = await call(t.app, { method: 'GET', url: `${API_BASE}/${category}/duplicates?${new URLSearchParams(query)}`, headers: user ? user.auth : {} });
    return res;
  };
  const candidates = async (query: Record<string, string>, category = 'victims'): Promise<DuplicateCandidate[]> => {
    const res = await check(category, query);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const create = async (category: string, fields: Record<string, unknown>) => {
    const res = await call(t.app, {
      method: 'POST',
      url: `${API_BASE}/${category}`,
      headers: contributor.auth,
      payload: { description: 'Test data, not a real person.', ...fields },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as RecordDto;
  };

  it(`finds the same person under another spelling and not a different person (${PAIRS.length} made-up pairs)`, async () => {
    expect(PAIRS.length).toBeGreaterThanOrEqual(30);
    const wrong: string[] = [];
    for (const [i, [name, asked, same]] of PAIRS.entries()) {
      const found = (await candidates({ name: asked })).find((c) => c._id === stored[i]);
      if (Boolean(found) !== same) wrong.push(`${asked} -> ${name}: ${same ? 'missed' : `found (score ${found?.score})`}`);
      if (found) expect(found.reasons).toContain('name');
    }
    expect(wrong).toEqual([]);
  });

  it('scores a looser name higher with the same woreda and a date within a few days, and says why', async () => {
    const [near] = await t.app.db
      .insert(records)
      .values({ category: 'victims', title: 'Test victim (test data)', fullName: 'Tigist Namuna', woreda: 'ሙከራ ወረዳ', happenedOn: new Date('2021-03-04T00:00:00Z'), description: 'Test data.' })
      .returning({ id: records.id });
    // "Tesfaye Namuna" is not alike enough alone (a miss above); with the woreda (in the other script) and a date two
    // days apart, it is worth a look.
    const alone = await candidates({ name: 'Tesfaye Namuna' });
    expect(alone.map((c) => c._id)).not.toContain(near!.id);
    const withMore = await candidates({ name: 'Tesfaye Namuna', woreda: 'Mukera Wereda', happenedOn: '2021-03-06' });
    const found = withMore.find((c) => c._id === near!.id);
    expect(found?.reasons).toEqual(['name', 'date', 'woreda']);
    const farDate = await candidates({ name: 'Tesfaye Namuna', woreda: 'Mukera Wereda', happenedOn: '2021-04-06' });
    expect(farDate.find((c) => c._id === near!.id)?.reasons ?? []).not.toContain('date');
  });

  it('counts the same incident as a reason', async () => {
    const massacre = await create('massacres', { title: 'Test massacre (test data)' });
    const person = await create('victims', { title: 'Test victim (test data)', fullName: 'Selamawit Namuna', incidentId: massacre._id });
    const found = (await candidates({ name: 'Selamawit Namuna', incidentId: massacre._id })).find((c) => c._id === person._id);
    expect(found?.reasons).toEqual(['name', 'incident']);
    expect(found?.incidentId).toBe(massacre._id);
  });

  it('finds a looser name through each reason alone, and only when that reason makes the score', async () => {
    const massacre = await create('massacres', { title: 'Test massacre (test data)' });
    const person = await create('victims', {
      title: 'Test victim (test data)',
      fullName: 'Birtukan Gemechu',
      woreda: 'Sample Test Wereda',
      happenedOn: '2021-06-10T00:00:00',
      incidentId: massacre._id,
    });
    const reasonsFor = async (query: Record<string, string>) => (await candidates(query)).find((c) => c._id === person._id)?.reasons ?? null;
    // "Birtu Gemechis" is 0.52 alike (pg_trgm): not enough alone, enough with one reason worth 0.1.
    expect(await reasonsFor({ name: 'Birtu Gemechis' })).toBeNull();
    expect(await reasonsFor({ name: 'Birtu Gemechis', woreda: 'Sample Test Wereda' })).toEqual(['name', 'woreda']);
    expect(await reasonsFor({ name: 'Birtu Gemechis', happenedOn: '2021-06-12' })).toEqual(['name', 'date']);
    // "Birtkan Gemachew" is 0.36 alike: one reason worth 0.1 is not enough, the incident (0.2) or date and woreda are.
    expect(await reasonsFor({ name: 'Birtkan Gemachew', woreda: 'Sample Test Wereda' })).toBeNull();
    expect(await reasonsFor({ name: 'Birtkan Gemachew', happenedOn: '2021-06-12' })).toBeNull();
    expect(await reasonsFor({ name: 'Birtkan Gemachew', incidentId: massacre._id })).toEqual(['name', 'incident']);
    expect(await reasonsFor({ name: 'Birtkan Gemachew', woreda: 'Sample Test Wereda', happenedOn: '2021-06-08' })).toEqual(['name', 'date', 'woreda']);
  });

  it('refuses a bad question with the field named, and asks to sign in', async () => {
    expect((await check('victims', { name: 'Abebe Namuna' }, null)).status).toBe(401);
    const short = await check('victims', { name: 'A' });
    expect(short.status).toBe(400);
    expect(short.body.name).toBeTruthy();
    const badDate = await check('victims', { name: 'Abebe Namuna', happenedOn: 'yesterday' });
    expect(badDate.status).toBe(400);
    expect(badDate.body.happenedOn).toBeTruthy();
    const badId = await check('victims', { name: 'Abebe Namuna', incidentId: 'not-an-id' });
    expect(badId.status).toBe(400);
    expect(badId.body.incidentId).toBeTruthy();
    // Categories whose records are not one person have no check.
    expect((await check('massacres', { name: 'Abebe Namuna' })).status).toBe(404);
  });

  it('checks within the category, never answers trashed records or the record being edited', async () => {
    const missing = await create('missings', { title: 'Hirut Mukera' });
    const orphan = await create('orphans', { title: 'Test orphan (test data)', fullName: 'Hirut Mukera' });
    expect((await candidates({ name: 'ሕሩት ሙከራ' }, 'missings')).map((c) => c._id)).toEqual([missing._id]);
    expect((await candidates({ name: 'Hirut Mukera', id: orphan._id }, 'orphans')).map((c) => c._id)).toEqual([]);
    expect((await call(t.app, { method: 'DELETE', url: `${API_BASE}/missings/${missing._id}/delete`, headers: contributor.auth })).status).toBe(200);
    expect(await candidates({ name: 'Hirut Mukera' }, 'missings')).toEqual([]);
  });

  describe('admins: possible duplicates, merge, not the same person', () => {
    let keep: RecordDto;
    let other: RecordDto;
    let third: RecordDto;
    let incident: RecordDto;
    const keptSource = { kind: 'media', title: 'Test report cited by both (test data)', url: 'https://example.org/test-both' };
    const mergedSource = { kind: 'ngo', title: 'Test report cited by the merged record only (test data)', url: 'https://example.org/test-merged' };

    beforeAll(async () => {
      incident = await create('massacres', { title: 'Test massacre of the merged record (test data)' });
      keep = await create('victims', {
        title: 'Test victim kept (test data)',
        fullName: 'Fasika Mukera',
        woreda: 'Sample woreda',
        happenedOn: '2022-05-01T00:00:00',
        sources: [keptSource],
      });
      const form = multipart(
        {
          title: 'Test victim merged (test data)',
          fullName: 'ፋሲካ ሙከራ',
          woreda: 'Sample woreda',
          happenedOn: '2022-05-02T00:00:00',
          description: 'Test data.',
          incidentId: incident._id,
          sources: JSON.stringify([keptSource, mergedSource]),
        },
        [{ field: 'image', filename: 'test.png', type: 'image/png', data: await testImage(3) }],
      );
      const res = await call(t.app, { method: 'POST', url: `${API_BASE}/victims`, headers: { ...contributor.auth, ...form.headers }, payload: form.payload });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      other = res.body;
      expect(other.images).toHaveLength(1);
      third = await create('victims', { title: 'Test victim different (test data)', fullName: 'Fasika Mukerra', region: 'afar' });
    });

    const pairs = async (user: User = admin): Promise<DuplicatePair[]> => {
      await scanQueue(t.app.db); // as the site's background scan does after a write
      const res = await call(t.app, { method: 'GET', url: `${API_BASE}/duplicates?limit=200`, headers: user.auth });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    const hasPair = (list: DuplicatePair[], a: string, b: string) => list.some((p) => [p.first._id, p.second._id].sort().join() === [a, b].sort().join());

    it('lists pairs best first, for admins only', async () => {
      const list = await pairs();
      const sample = list.find((p) => p.first.fullName !== null && [p.first.fullName, p.second.fullName].sort().join() === ['Namuna Mukera', 'ናሙና ሙከራ'].join());
      expect(sample?.reasons).toContain('name');
      expect(hasPair(list, keep._id, other._id)).toBe(true);
      expect(hasPair(list, keep._id, third._id)).toBe(true);
      const scores = list.map((p) => p.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      const best = list.find((p) => hasPair([p], keep._id, other._id))!;
      expect(best.reasons).toEqual(['name', 'date', 'woreda']);
      expect((await call(t.app, { method: 'GET', url: `${API_BASE}/duplicates`, headers: contributor.auth })).status).toBe(403);
      expect((await call(t.app, { method: 'GET', url: `${API_BASE}/duplicates` })).status).toBe(401);
    });

    it('"not the same person" is never shown again, by the screen or the check', async () => {
      const body = { first: keep._id, second: third._id };
      expect((await call(t.app, { method: 'POST', url: `${API_BASE}/duplicates/dismiss`, headers: contributor.auth, payload: body })).status).toBe(403);
      expect((await call(t.app, { method: 'POST', url: `${API_BASE}/duplicates/dismiss`, headers: admin.auth, payload: body })).status).toBe(204);
      expect(hasPair(await pairs(), keep._id, third._id)).toBe(false);
      expect((await candidates({ name: 'Fasika Mukerra', id: third._id })).map((c) => c._id)).not.toContain(keep._id);
      const audit = await t.database.query<{ action: string; subject: string }>(`select action, subject from audit_log where action = 'not-duplicate'`);
      expect(audit).toHaveLength(1);
      const same = await call(t.app, { method: 'POST', url: `${API_BASE}/duplicates/dismiss`, headers: admin.auth, payload: { first: keep._id, second: keep._id } });
      expect(same.status).toBe(400);
      expect(same.body.second).toBeTruthy();
    });

    it('merges: only admins; the kept record takes the files, sources and incident link, the other leads to it, both versions audited, counted once', async () => {
      const total = async () => Number((await call(t.app, { method: 'GET', url: `${API_BASE}/victims?limit=1` })).headers['x-total-count']);
      const stats = async () =>
        (await call(t.app, { method: 'GET', url: `${API_BASE}/statistics` })).body.categories.find((c: { category: string }) => c.category === 'victims').count as number;
      const [before, statsBefore] = [await total(), await stats()];
      const body = { keep: keep._id, merge: other._id };
      expect((await call(t.app, { method: 'POST', url: `${API_BASE}/duplicates/merge`, headers: contributor.auth, payload: body })).status).toBe(403);
      const merged = await call(t.app, { method: 'POST', url: `${API_BASE}/duplicates/merge`, headers: admin.auth, payload: body });
      expect(merged.status, JSON.stringify(merged.body)).toBe(200);
      expect(merged.body).toEqual({ category: 'victims', keep: keep._id });

      const redirect = await t.app.inject({ method: 'GET', url: `${API_BASE}/victims/${other._id}` });
      expect(redirect.statusCode).toBe(301);
      expect(redirect.headers.location).toBe(`${API_BASE}/victims/${keep._id}`);
      expect(redirect.json().mergedInto).toBe(keep._id);
      const kept = (await call(t.app, { method: 'GET', url: `${API_BASE}/victims/${keep._id}` })).body as RecordDto;
      expect(kept.images.map((image) => image.imageId)).toEqual(other.images.map((image) => image.imageId));
      expect(kept.incidentId).toBe(incident._id);
      expect((kept.sources as { title: string }[]).map((source) => source.title)).toEqual([keptSource.title, mergedSource.title]);
      expect((await call(t.app, { method: 'GET', url: `${API_BASE}/victims/${other._id}`, headers: admin.auth })).headers.location).toBe(`${API_BASE}/victims/${keep._id}`);

      expect(await total()).toBe(before - 1);
      expect(await stats()).toBe(statsBefore - 1);
      expect(hasPair(await pairs(), keep._id, other._id)).toBe(false);
      expect((await candidates({ name: 'Fasika Mukera' })).map((c) => c._id)).not.toContain(other._id);

      const audit = await t.database.query<{ action: string; record_id: string; subject: string; changes: Record<string, { before: unknown; after: unknown }> }>(
        `select action, record_id, subject, changes from audit_log where action in ('merge', 'merged') order by seq`,
      );
      expect(audit.map((a) => [a.action, a.record_id, a.subject])).toEqual([
        ['merge', keep._id, other._id],
        ['merged', other._id, keep._id],
      ]);
      expect(audit[0]!.changes.incidentId).toEqual({ before: null, after: incident._id });
      expect((audit[0]!.changes.sources!.after as unknown[]).length).toBe(2);
      const version = audit[1]!.changes;
      expect(version.fullName).toEqual({ before: 'ፋሲካ ሙከራ', after: 'ፋሲካ ሙከራ' });
      expect(version.mergedInto).toEqual({ before: null, after: keep._id });
      expect(version.deletedAt!.before).toBeNull();
      const verify = await call(t.app, { method: 'GET', url: `${API_BASE}/audit/verify`, headers: admin.auth });
      expect(verify.body).toMatchObject({ ok: true, firstBrokenSeq: null });

      // Merged already: a second merge of it, or into it, finds no live record.
      expect((await call(t.app, { method: 'POST', url: `${API_BASE}/duplicates/merge`, headers: admin.auth, payload: body })).status).toBe(404);
      expect((await call(t.app, { method: 'POST', url: `${API_BASE}/duplicates/merge`, headers: admin.auth, payload: { keep: other._id, merge: keep._id } })).status).toBe(404);
    });

    it('refuses a merge across categories and a malformed one, naming the field', async () => {
      const missing = await create('missings', { title: 'Fasika Mukera' });
      const across = await call(t.app, { method: 'POST', url: `${API_BASE}/duplicates/merge`, headers: admin.auth, payload: { keep: keep._id, merge: missing._id } });
      expect(across.status).toBe(400);
      expect(across.body.merge).toBeTruthy();
      const malformed = await call(t.app, { method: 'POST', url: `${API_BASE}/duplicates/merge`, headers: admin.auth, payload: { keep: 'x' } });
      expect(malformed.status).toBe(400);
      expect(malformed.body.keep).toBeTruthy();
      expect(malformed.body.merge).toBeTruthy();
    });
  });
});
