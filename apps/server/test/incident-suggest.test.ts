import { describe, expect, it } from 'vitest';
import { API_BASE, CATEGORIES } from '@app/shared';
import { call } from './helpers';
import { useTestApp, type User } from './fixtures/app';
import { sampleFields } from './records-helpers';

/** GET /incidents/suggest: the incident picker's search as you type (issue 39). Test data only: no real place or person. */
describe('incident suggestions', () => {
  const { t, author, other, admin } = useTestApp({ author: 'contributor', other: 'contributor', admin: 'admin' });

  const post = (slug: 'massacres' | 'events' | 'victims', body: Record<string, unknown>) =>
    call(t.app, { method: 'POST', url: `${API_BASE}/${slug}`, headers: author.auth, payload: { ...sampleFields(CATEGORIES[slug], 'Test'), ...body } });
  const suggest = (query: string, who?: User) => call(t.app, { method: 'GET', url: `${API_BASE}/incidents/suggest?${query}`, headers: who?.auth ?? {} });
  const titles = (res: { body: { incidents: { title: string }[] } }) => res.body.incidents.map((i) => i.title);

  async function make(slug: 'massacres' | 'events' | 'victims', body: Record<string, unknown>): Promise<string> {
    const res = await post(slug, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body._id as string;
  }

  it('finds a massacre by the start of a title word, of the case number, of a place word, and by a typed date', async () => {
    const id = await make('massacres', {
      title: 'Quorvex testmassacre (test data)',
      caseNum: 'QZ-4711/B',
      woreda: 'Zylbrin test woreda',
      happenedOn: '2019-07-14T00:00:00',
    });
    await make('victims', { title: 'Quorvex test victim (test data)' });
    for (const q of ['quor', 'QUORVEX testmas', 'testmassacre', 'qz-47', 'qz', 'zylb', '2019', '2019-07', '2019-07-14']) {
      const res = await suggest(`q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
      expect(titles(res), q).toContain('Quorvex testmassacre (test data)');
    }
    const found = (await suggest('q=quorv')).body.incidents;
    // A victim is not an incident, and a word must start as typed (not in the middle of one).
    expect(found).toHaveLength(1);
    expect(found[0]).toEqual({
      id,
      category: 'massacres',
      title: 'Quorvex testmassacre (test data)',
      date: '2019-07-14',
      caseNum: 'QZ-4711/B',
      place: expect.stringContaining('Zylbrin test woreda'),
      region: 'amhara',
    });
    for (const q of ['orvex', 'quorvexx', '2019-08', '2018', 'quorvex nothere']) expect(titles(await suggest(`q=${encodeURIComponent(q)}`)), q).toEqual([]);
  });

  it('finds a word the text parser reads as a number when typed alone (85e4af: 85e4, then af)', async () => {
    await make('events', { title: 'SUGGEST-TEST-85E4AFNG event (test data)' });
    await make('events', { title: '12E3QRX standalone test event (test data)' });
    for (const q of ['suggest-test-85e4af', '85e4af', '85E4AFNG']) expect(titles(await suggest(`q=${encodeURIComponent(q)}`)), q).toContain('SUGGEST-TEST-85E4AFNG event (test data)');
    for (const q of ['12e3qr', '12e3qrx stand']) expect(titles(await suggest(`q=${encodeURIComponent(q)}`)), q).toContain('12E3QRX standalone test event (test data)');
  });

  it('finds events as well, newest incident date first, at most `limit`', async () => {
    await make('events', { title: 'Plimsk test event early (test data)', startAt: '2015-01-02T00:00:00' });
    await make('events', { title: 'Plimsk test event late (test data)', startAt: '2016-01-02T00:00:00' });
    await make('massacres', { title: 'Plimsk test massacre (test data)', happenedOn: '2015-06-02T00:00:00' });
    expect(titles(await suggest('q=plim'))).toEqual(['Plimsk test event late (test data)', 'Plimsk test massacre (test data)', 'Plimsk test event early (test data)']);
    expect(titles(await suggest('q=plim&limit=1'))).toEqual(['Plimsk test event late (test data)']);
  });

  it('never suggests a private incident to an anonymous reader, nor a trashed one to anyone; signed-in readers see private ones', async () => {
    const hidden = await make('massacres', { title: 'Vextral hidden test massacre (test data)' });
    expect((await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${hidden}/access`, headers: admin.auth })).body).toMatchObject({ public: false, approved: false });
    const trashed = await make('events', { title: 'Vextral trashed test event (test data)' });
    expect((await call(t.app, { method: 'DELETE', url: `${API_BASE}/events/${trashed}/delete`, headers: admin.auth })).status).toBe(200);
    const anonymous = await suggest('q=vextr');
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.incidents).toEqual([]);
    expect(anonymous.body).not.toHaveProperty('incidents.0');
    expect(JSON.stringify(anonymous.body)).not.toContain(hidden);
    // Private records are readable by every signed-in reader (permissions.ts, can.readPrivate), as the list and search show them.
    for (const who of [other, admin]) expect(titles(await suggest('q=vextr', who))).toEqual(['Vextral hidden test massacre (test data)']);
  });

  it('refuses bad input with 400 and field errors keyed by field name, never 500', async () => {
    const cases: [string, string][] = [
      ['', 'q'],
      ['q=', 'q'],
      ['q=%20%20', 'q'],
      [`q=${'a'.repeat(201)}`, 'q'],
      ['q=test&limit=0', 'limit'],
      ['q=test&limit=11', 'limit'],
      ['q=test&limit=two', 'limit'],
      ['q=test&limit=1.5', 'limit'],
    ];
    for (const [query, field] of cases) {
      const res = await suggest(query);
      expect(res.status, query).toBe(400);
      expect(typeof res.body[field], `${query}: ${JSON.stringify(res.body)}`).toBe('string');
    }
    for (const q of ["'", ':*', '!&|()', "o'brien & <->", '\\', '%_', 'ፊደል፡ሰ']) {
      const res = await suggest(`q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
      expect(Array.isArray(res.body.incidents)).toBe(true);
    }
    // LIKE's wildcards are matched literally: every sample massacre has a case number, and "%" starts none of them.
    expect((await suggest('q=%25%25')).body.incidents).toEqual([]);
    expect((await suggest('q=Test%20case')).body.incidents.length).toBeGreaterThan(0);
  });
});
