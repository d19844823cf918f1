import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, CATEGORIES } from '@app/shared';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { multipart, sampleFields, testImage } from './records-helpers';

type User = Awaited<ReturnType<typeof createUser>>;

/** Every refused create or edit answers 400 {field: message} and leaves records, media and the audit log as they were. */
describe('records API validation', () => {
  let t: TestApp;
  let user: User;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t.app, 'contributor');
  });
  afterAll(async () => t.close());

  async function counts() {
    const [row] = await t.database.query<{ records: number; media: number; audit: number }>(
      'select (select count(*)::int from records) as records, (select count(*)::int from media) as media, (select count(*)::int from audit_log) as audit',
    );
    return row!;
  }

  async function expectRefused(
    request: () => Promise<{ status: number; body: any }>,
    field: string,
    status = 400,
  ) {
    const before = await counts();
    const res = await request();
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body).toHaveProperty(field);
    expect(typeof res.body[field]).toBe('string');
    expect(await counts()).toEqual(before);
  }

  const post = (slug: string, fields: Record<string, string>, files: Parameters<typeof multipart>[1] = [], filesFirst = false) => {
    const body = multipart(fields, files, { filesFirst });
    return call(t.app, { method: 'POST', url: `${API_BASE}/${slug}`, headers: { ...user.auth, ...body.headers }, payload: body.payload });
  };
  const image = async (field = 'files[]') => [{ field, filename: 'a.png', type: 'image/png', data: await testImage(7) }];

  it('refuses bad dates, negative quantities, over-long text and bad links, writing nothing', async () => {
    await expectRefused(() => post('victims', { ...sampleFields(CATEGORIES.victims), happenedOn: '2021-02-30T10:00:00' }), 'happenedOn');
    await expectRefused(() => post('events', { ...sampleFields(CATEGORIES.events), startAt: 'tomorrow' }), 'startAt');
    await expectRefused(() => post('displacements', { ...sampleFields(CATEGORIES.displacements), quantity: '-3' }), 'quantity');
    await expectRefused(() => post('missings', { ...sampleFields(CATEGORIES.missings), quantity: '2.5' }), 'quantity');
    await expectRefused(() => post('orphans', { ...sampleFields(CATEGORIES.orphans), title: 'x'.repeat(301) }), 'title');
    await expectRefused(() => post('links', { ...sampleFields(CATEGORIES.links), linkURL: 'javascript:alert(1)' }), 'linkURL');
    await expectRefused(() => post('videos', { ...sampleFields(CATEGORIES.videos), videoUrl: 'not a link' }), 'videoUrl');
    await expectRefused(() => post('blogs', { ...sampleFields(CATEGORIES.blogs), title: '' }), 'title');
    // Text fields before the files: refused before any file is stored.
    await expectRefused(
      async () => post('massacres', { ...sampleFields(CATEGORIES.massacres), evidence: 'https://example.org/a, ftp://example.org/b' }, await image()),
      'evidence',
    );
    // Files first, bad field after: the transaction is rolled back (no record, no media row, no audit entry).
    await expectRefused(
      async () => post('massacres', { ...sampleFields(CATEGORIES.massacres), quantity: '-1' }, await image(), true),
      'quantity',
    );
    // Required field missing after the files.
    const { title: _omit, ...noTitle } = sampleFields(CATEGORIES.victims);
    await expectRefused(async () => post('victims', noTitle, await image('image'), true), 'title');
  });

  it('refuses files in fields the category does not take, and files that are not images', async () => {
    await expectRefused(async () => post('victims', sampleFields(CATEGORIES.victims), await image('files[]')), 'files[]');
    await expectRefused(async () => post('links', sampleFields(CATEGORIES.links), await image('video')), 'video');
    await expectRefused(
      () => post('victims', sampleFields(CATEGORIES.victims), [{ field: 'image', filename: 'a.png', type: 'image/png', data: Buffer.from('not an image at all') }]),
      'image',
    );
  });

  it('answers malformed multipart and JSON with 400, never 500', async () => {
    const body = multipart(sampleFields(CATEGORIES.victims), await image('image'));
    const truncated = body.payload.subarray(0, body.payload.length - 60);
    await expectRefused(
      () => call(t.app, { method: 'POST', url: `${API_BASE}/victims`, headers: { ...user.auth, ...body.headers }, payload: truncated }),
      'message',
    );
    await expectRefused(
      () =>
        call(t.app, {
          method: 'POST',
          url: `${API_BASE}/victims`,
          headers: { ...user.auth, 'content-type': 'multipart/form-data' },
          payload: 'garbage',
        }),
      'message',
    );
    await expectRefused(
      () =>
        call(t.app, {
          method: 'POST',
          url: `${API_BASE}/victims`,
          headers: { ...user.auth, 'content-type': 'application/json' },
          payload: '{"title": ',
        }),
      'message',
    );
    await expectRefused(
      () => call(t.app, { method: 'POST', url: `${API_BASE}/victims`, headers: { ...user.auth, 'content-type': 'application/json' }, payload: '[1,2]' }),
      'message',
    );
  });

  it('refuses a bad edit and keeps the stored record unchanged', async () => {
    const created = await post('victims', sampleFields(CATEGORIES.victims), await image('image'));
    expect(created.status).toBe(201);
    const id = created.body._id;
    const editUrl = `${API_BASE}/victims/${id}/edit`;
    await expectRefused(() => call(t.app, { method: 'PUT', url: editUrl, headers: user.auth, payload: { title: 'New', happenedOn: '31/12/2020' } }), 'happenedOn');
    await expectRefused(() => call(t.app, { method: 'PUT', url: editUrl, headers: user.auth, payload: { title: '   ' } }), 'title');
    const replacement = multipart({ subtitle: 'y'.repeat(301) }, await image('image'));
    await expectRefused(
      () => call(t.app, { method: 'PUT', url: editUrl, headers: { ...user.auth, ...replacement.headers }, payload: replacement.payload }),
      'subtitle',
    );
    const after = await call(t.app, { method: 'GET', url: `${API_BASE}/victims/${id}`, headers: user.auth });
    expect(after.body).toEqual(created.body);
    // An empty optional field clears it; a blank createdAt keeps the stored date.
    const cleared = await call(t.app, { method: 'PUT', url: editUrl, headers: user.auth, payload: { subtitle: '', createdAt: '' } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.subtitle).toBeNull();
    expect(cleared.body.createdAt).toBe(created.body.createdAt);
  });

  it('refuses a published date in the future on create and edit, a few minutes of clock skew allowed; a change is audited', async () => {
    const inAnHour = new Date(Date.now() + 60 * 60_000).toISOString();
    await expectRefused(() => post('victims', { ...sampleFields(CATEGORIES.victims), createdAt: '2099-01-01T00:00:00' }), 'createdAt');
    await expectRefused(() => post('links', { ...sampleFields(CATEGORIES.links), createdAt: inAnHour }), 'createdAt');
    // A sender's clock a little ahead of the server's.
    const skewed = await post('victims', { ...sampleFields(CATEGORIES.victims), createdAt: new Date(Date.now() + 2 * 60_000).toISOString() });
    expect(skewed.status, JSON.stringify(skewed.body)).toBe(201);
    const editUrl = `${API_BASE}/victims/${skewed.body._id}/edit`;
    const edit = (createdAt: string) => call(t.app, { method: 'PUT', url: editUrl, headers: user.auth, payload: { createdAt } });
    await expectRefused(() => edit(inAnHour), 'createdAt');
    expect((await call(t.app, { method: 'GET', url: `${API_BASE}/victims/${skewed.body._id}` })).body.createdAt).toBe(skewed.body.createdAt);

    const earlier = '2020-02-03T04:05:06.000Z';
    const edited = await edit(earlier);
    expect(edited.status).toBe(200);
    expect(edited.body.createdAt).toBe(earlier);
    const [entry] = await t.database.query<{ changes: Record<string, { before: unknown; after: unknown }> }>(
      `select changes from audit_log where record_id = $1 and action = 'edit' order by seq desc limit 1`,
      [skewed.body._id],
    );
    expect(entry!.changes.createdAt).toEqual({ before: skewed.body.createdAt, after: earlier });
  });

  it('refuses an incident date and a source date in the future on create and edit (issue 52 item 4), today in the earliest time zone allowed', async () => {
    const inTwoDays = new Date(Date.now() + 2 * 24 * 60 * 60_000).toISOString();
    for (const slug of ['victims', 'massacres', 'displacements', 'missings', 'orphans', 'videos'] as const) {
      await expectRefused(() => post(slug, { ...sampleFields(CATEGORIES[slug]), happenedOn: '2099-01-01T00:00:00' }), 'happenedOn');
    }
    await expectRefused(() => post('massacres', { ...sampleFields(CATEGORIES.massacres), happenedOn: inTwoDays }), 'happenedOn');
    const futureSource = JSON.stringify([{ kind: 'media', title: 'Sample report (test data)', date: '2099-05' }]);
    await expectRefused(() => post('massacres', { ...sampleFields(CATEGORIES.massacres), sources: futureSource }), 'sources');
    const nextYear = JSON.stringify([{ kind: 'media', title: 'Sample report (test data)', date: String(new Date().getUTCFullYear() + 1) }]);
    await expectRefused(() => post('massacres', { ...sampleFields(CATEGORIES.massacres), sources: nextYear }), 'sources');

    // Now, written as the local time of an editor in UTC+3 (read as UTC, three hours ahead), and this month as a source's date.
    const localNow = new Date(Date.now() + 3 * 60 * 60_000).toISOString().slice(0, 19);
    const thisMonth = new Date().toISOString().slice(0, 7);
    const made = await post('massacres', { ...sampleFields(CATEGORIES.massacres), happenedOn: localNow, sources: JSON.stringify([{ kind: 'media', title: 'Sample report (test data)', date: thisMonth }]) });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const editUrl = `${API_BASE}/massacres/${made.body._id}/edit`;
    await expectRefused(() => call(t.app, { method: 'PUT', url: editUrl, headers: user.auth, payload: { happenedOn: '2099-01-01T00:00:00' } }), 'happenedOn');
    const sourceEdit = await call(t.app, { method: 'PUT', url: editUrl, headers: user.auth, payload: { sources: [{ kind: 'media', title: 'Sample report (test data)', date: '2099-01-02' }] } });
    expect(sourceEdit.status).toBe(400);
    expect(sourceEdit.body.sources).toBe('Source 1 (date): Date must not be in the future');
    const stored = (await call(t.app, { method: 'GET', url: `${API_BASE}/massacres/${made.body._id}` })).body;
    expect(stored.happenedOn).toBe(made.body.happenedOn);
    expect(stored.sources).toEqual(made.body.sources);
  });

  it('skips the empty file part a form sends when no file was chosen', async () => {
    const res = await post('victims', sampleFields(CATEGORIES.victims), [{ field: 'image', filename: '', type: 'application/octet-stream', data: Buffer.alloc(0) }]);
    expect(res.status).toBe(201);
    expect(res.body.images).toEqual([]);
  });
});
