import { beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, CATEGORIES } from '@app/shared';
import { seedSampleContent } from '../src/seed/sample';
import { call } from './helpers';
import { useTestApp, type User } from './fixtures/app';
import { multipart, sampleFields } from './records-helpers';

const WITNESS = { kind: 'witness', title: 'Testimony of test witness Q', note: 'Test witness lives at test address 7', withheld: true };
const REPORT = { kind: 'media', title: 'Test report', publisher: 'Test Daily', date: '2021-03', url: 'https://example.org/test-report', language: 'en' };

/** Sources on every record (issue 39 item 2) and coordinates shown rounded (item 5). Test data only. */
describe('record sources and coordinates', () => {
  const { t, author, other, admin } = useTestApp({ author: 'contributor', other: 'contributor', admin: 'admin' });
  beforeAll(async () => {
    await seedSampleContent({ db: t.app.db, media: t.app.media, audit: t.app.audit, log: t.app.log });
  });

  const post = (slug: keyof typeof CATEGORIES, body: Record<string, unknown>) =>
    call(t.app, { method: 'POST', url: `${API_BASE}/${slug}`, headers: author.auth, payload: { ...sampleFields(CATEGORIES[slug], 'Test'), ...body } });
  const get = (url: string, who?: User) => call(t.app, { method: 'GET', url: `${API_BASE}${url}`, headers: who?.auth ?? {} });

  it('the sample content shows sources, a withheld testimony, coordinates and people linked to a massacre', async () => {
    const victims = (await get('/victims?limit=50')).body as { sources: { withheld?: boolean; note?: string }[]; incidentId: string | null; title: string }[];
    const sample = victims.filter((v) => v.title.startsWith('Sample'));
    expect(sample.some((v) => v.sources.some((s) => s.withheld && !s.note))).toBe(true);
    const linked = sample.find((v) => v.incidentId)!;
    const people = await get(`/massacres/${linked.incidentId}/people`);
    expect(people.body.total).toBeGreaterThanOrEqual(4);
    const massacres = (await get('/massacres?limit=50')).body as { latitude: number | null; geoPrecision: string | null }[];
    expect(massacres.some((m) => m.latitude !== null && m.geoPrecision)).toBe(true);
  });

  it('takes sources as a JSON array, and as JSON text in one multipart field', async () => {
    const json = await post('blogs', { sources: [REPORT] });
    expect(json.status, JSON.stringify(json.body)).toBe(201);
    expect(json.body.sources).toEqual([REPORT]);
    const body = multipart({ ...sampleFields(CATEGORIES.links, 'Test'), sources: JSON.stringify([REPORT, { kind: 'ngo', title: 'Test NGO report' }]) });
    const form = await call(t.app, { method: 'POST', url: `${API_BASE}/links`, headers: { ...author.auth, ...body.headers }, payload: body.payload });
    expect(form.status, JSON.stringify(form.body)).toBe(201);
    expect(form.body.sources.map((s: { kind: string }) => s.kind)).toEqual(['media', 'ngo']);
  });

  it('refuses bad sources keyed sources, writing nothing', async () => {
    for (const sources of ['not json', [{ kind: 'rumour', title: 'x' }], [{ kind: 'media' }], [{ kind: 'media', title: 'x', url: 'javascript:1' }], [{ ...REPORT, withheld: true }], [{ kind: 'media', title: 'x', date: '2021-13' }]]) {
      const res = await post('victims', { sources });
      expect(res.status, JSON.stringify(sources)).toBe(400);
      expect(typeof res.body.sources).toBe('string');
    }
  });

  it("shows a withheld testimony's details to its editors only: never to the public, other contributors, search or export", async () => {
    const res = await post('victims', { title: 'Test victim with witness', sources: [WITNESS, REPORT] });
    const id = res.body._id as string;
    // The author is the record's editor: the answer to their own create shows the details.
    expect(res.body.sources[0]).toEqual(WITNESS);
    for (const who of [undefined, other]) {
      const read = await get(`/victims/${id}`, who);
      expect(read.body.sources[0]).toEqual({ kind: 'witness', title: "Witness testimony, withheld for the witness's safety", withheld: true });
      expect(read.body.sources[1]).toEqual(REPORT);
      expect(read.raw.body).not.toContain('test witness Q');
    }
    expect((await get(`/victims/${id}`, admin)).body.sources[0]).toEqual(WITNESS);
    // Staff are every record's editors, but an export is a document kept apart: it shows what the public sees.
    const readers: [string, (User | undefined)[]][] = [
      ['/victims', [undefined, other]],
      ['/news', [undefined, other]],
      ['/search?q=witness', [undefined, other]],
      ['/export.csv', [undefined, admin]],
      ['/export.ndjson', [undefined, admin]],
    ];
    for (const [url, whos] of readers) {
      for (const who of whos) {
        const read = await get(url, who);
        expect(read.raw.body, url).not.toContain('test witness Q');
        expect(read.raw.body, url).not.toContain('test address 7');
      }
    }
  });

  it('shows coordinates rounded to their precision to all but the editors', async () => {
    const refused = await post('massacres', { latitude: 11.59361, longitude: 37.39077, geoPrecision: '' });
    expect(refused.status).toBe(400);
    expect(refused.body.geoPrecision).toBeTypeOf('string');
    expect((await post('massacres', { latitude: 11.5, longitude: '' })).body.longitude).toBeTypeOf('string');
    expect((await post('massacres', { latitude: 95, longitude: 37, geoPrecision: 'town' })).body.latitude).toBeTypeOf('string');
    expect((await post('events', { latitude: 11, longitude: 37, geoPrecision: 'street' })).body.geoPrecision).toBeTypeOf('string');
    const cases: [string, number, number][] = [
      ['exact', 11.59361, 37.39077],
      ['town', 11.59, 37.39],
      ['woreda', 11.6, 37.4],
      ['zone', 11.5, 37.5],
      ['region', 12, 37],
    ];
    for (const [geoPrecision, latitude, longitude] of cases) {
      const made = await post('massacres', { latitude: '11.59361', longitude: '37.39077', geoPrecision });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect(made.body).toMatchObject({ latitude: 11.59361, longitude: 37.39077 });
      for (const who of [undefined, other]) {
        const read = await get(`/massacres/${made.body._id}`, who);
        expect({ p: geoPrecision, lat: read.body.latitude, lon: read.body.longitude }).toEqual({ p: geoPrecision, lat: latitude, lon: longitude });
      }
    }
    const exported = (await get('/export.ndjson?category=massacres', admin)).raw.body.trim().split('\n').map((line) => JSON.parse(line));
    for (const [geoPrecision, latitude, longitude] of cases) {
      const rows = exported.filter((r: { geoPrecision: string; title: string }) => r.geoPrecision === geoPrecision && r.title.startsWith('Test'));
      expect(rows.length).toBe(1);
      expect([rows[0].latitude, rows[0].longitude]).toEqual([latitude, longitude]);
    }
  });
});
