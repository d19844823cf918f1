import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, REGIONS, type RecordDto } from '@app/shared';
import { INCIDENT_COLUMNS, PEOPLE_COLUMNS } from '../src/modules/export/field-columns';
import { call } from './helpers';
import { useTestApp } from './fixtures/app';

/** The exports in the field's formats: incidents with ACLED's columns, people, the HXL row, datapackage.json. Test data only. */
describe('exports in the field formats (ACLED columns, HXL, Frictionless)', () => {
  const { t, editor, admin } = useTestApp({ editor: 'contributor', admin: 'admin' });
  const made: Record<string, RecordDto> = {};
  let ip = 0;
  const anonymous = () => ({ remoteAddress: `198.51.100.${++ip}` });

  async function create(category: string, fields: Record<string, unknown>): Promise<RecordDto> {
    const res = await call(t.app, { method: 'POST', url: `${API_BASE}/${category}`, headers: editor.auth, payload: { description: 'Test data, not a real record.', ...fields } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }

  beforeAll(async () => {
    made.massacre = await create('massacres', {
      title: 'Test massacre (test data)',
      quantity: 12,
      region: 'amhara',
      zone: 'Sample zone',
      woreda: 'Sample woreda',
      location: 'Sample village, "quoted"',
      victimizer: 'Sample armed group',
      happenedOn: '2021-03-04T00:00:00',
      shortDescription: 'Test summary, with a comma',
      evidence: 'https://example.org/test-report-a, https://example.org/test-report-b',
      acledEventId: 'ETH00000',
      latitude: 11.123456,
      longitude: 38.987654,
      geoPrecision: 'town',
    });
    made.event = await create('events', { title: 'Test event abroad (test data)', country: 'Sample Country', city: 'Sample City', startAt: '2022-01-02T10:00:00' });
    made.private = await create('massacres', { title: 'Test private massacre (test data)', region: 'afar' });
    expect((await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${made.private._id}/access`, headers: admin.auth })).status).toBe(200);
    made.victim = await create('victims', { title: 'Test victim (test data)', fullName: 'ሙከራ ናሙና', region: 'tigray', happenedOn: '2021-03-04T00:00:00', incidentId: made.massacre._id });
    made.trashedVictim = await create('victims', { title: 'Test trashed victim (test data)', fullName: 'Test Trashed Person', incidentId: made.massacre._id });
    expect((await call(t.app, { method: 'DELETE', url: `${API_BASE}/victims/${made.trashedVictim._id}/delete`, headers: admin.auth })).status).toBeLessThan(300);
    made.privateVictim = await create('victims', { title: 'Test victim of the private massacre (test data)', fullName: 'Test Other Person', incidentId: made.private._id });
    made.displacement = await create('displacements', { title: 'Test displacement (test data)', quantity: 40, region: 'oromia' });
    made.blog = await create('blogs', { title: 'Test article (test data)' });
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers, ...anonymous() });
  const rowsOf = (body: string) => parse(body, { columns: true, bom: true }) as Record<string, string>[];

  it('incidents.csv: one row per public massacre or event, ACLED columns, matching the API', async () => {
    const res = await get(`${API_BASE}/export/incidents.csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/filename="incidents-\d{4}-\d{2}-\d{2}\.csv"/);
    const rows = rowsOf(res.body);
    expect(Object.keys(rows[0]!).slice(0, 21)).toEqual([
      'event_id', 'event_date', 'time_precision', 'event_type', 'sub_event_type', 'actor1', 'iso', 'country', 'admin1', 'admin1_pcode', 'admin1_iso',
      'admin2', 'admin3', 'location', 'latitude', 'longitude', 'geo_precision', 'fatalities', 'named_people', 'source', 'source_count',
    ]);
    expect(rows.map((r) => r.event_id).sort()).toEqual([made.massacre!._id, made.event!._id].sort());
    const massacre = rows.find((r) => r.event_id === made.massacre!._id)!;
    const api = (await call(t.app, { method: 'GET', url: `${API_BASE}/massacres/${made.massacre!._id}` })).body as RecordDto;
    expect(massacre).toMatchObject({
      event_date: '2021-03-04',
      time_precision: '1',
      event_type: 'Violence against civilians',
      sub_event_type: 'Attack',
      actor1: api.victimizer,
      iso: '231',
      country: 'Ethiopia',
      admin1: 'Amhara',
      admin1_pcode: 'ET03',
      admin1_iso: 'ET-AM',
      admin2: api.zone,
      admin3: api.woreda,
      location: api.location,
      fatalities: String(api.quantity),
      // The victim linked to it; the one in the trash is not counted.
      named_people: '1',
      source: 'https://example.org/test-report-a; https://example.org/test-report-b',
      source_count: '2',
      notes: api.shortDescription,
      updated_at: api.updatedAt,
      acled_event_id: 'ETH00000',
      title: api.title,
      // Rounded to the precision chosen (town: 0.01), as the public sees it.
      latitude: '11.12',
      longitude: '38.99',
      geo_precision: 'town',
    });
    const event = rows.find((r) => r.event_id === made.event!._id)!;
    expect(event).toMatchObject({ event_date: '2022-01-02', iso: '', country: 'Sample Country', event_type: '', location: 'Sample City', fatalities: '' });
  });

  it("people.csv: one row per person of the people categories, public fields, with incident_id", async () => {
    const rows = rowsOf((await get(`${API_BASE}/export/people.csv`)).body);
    expect(Object.keys(rows[0]!)).toEqual(PEOPLE_COLUMNS.map((c) => c.name));
    expect(rows.map((r) => r.person_id).sort()).toEqual([made.victim!._id, made.privateVictim!._id, made.displacement!._id].sort());
    // A person of a private incident is public, but the incident is not told to an anonymous reader.
    expect(rows.find((r) => r.person_id === made.privateVictim!._id)?.incident_id).toBe('');
    const victim = rows.find((r) => r.person_id === made.victim!._id)!;
    expect(victim).toMatchObject({ category: 'victims', name: 'ሙከራ ናሙና', date: '2021-03-04', admin1: 'Tigray', admin1_pcode: 'ET01', incident_id: made.massacre!._id });
    expect(rows.find((r) => r.person_id === made.displacement!._id)).toMatchObject({ people: '40', admin1_pcode: 'ET04' });
  });

  it('a signed-in reader exports what they may read (the private massacre too)', async () => {
    const rows = rowsOf((await get(`${API_BASE}/export/incidents.csv`, editor.auth)).body);
    expect(rows.map((r) => r.event_id)).toContain(made.private!._id);
    expect(rows.find((r) => r.event_id === made.massacre!._id)?.named_people).toBe('1');
    expect(rows.find((r) => r.event_id === made.private!._id)?.named_people).toBe('1');
  });

  it('?hxl=1 puts the HXL hashtag row under the header, as HDX reads it', async () => {
    const lines = parse((await get(`${API_BASE}/export/incidents.csv?hxl=1`)).body, { bom: true }) as string[][];
    const [header, hashtags, ...data] = lines;
    expect(header).toEqual(INCIDENT_COLUMNS.map((c) => c.name));
    const tagOf = (name: string) => hashtags![header!.indexOf(name)];
    expect(tagOf('event_id')).toBe('#event+id');
    expect(tagOf('event_date')).toBe('#date+start');
    expect(tagOf('actor1')).toBe('#group+name+first');
    expect(tagOf('iso')).toBe('#country+code');
    expect(tagOf('admin1')).toBe('#adm1+name');
    expect(tagOf('admin1_pcode')).toBe('#adm1+code');
    expect(tagOf('latitude')).toBe('#geo+lat');
    expect(tagOf('longitude')).toBe('#geo+lon');
    expect(tagOf('fatalities')).toBe('#affected+killed');
    expect(tagOf('source')).toBe('#meta+source');
    expect(tagOf('notes')).toBe('#description');
    for (const tag of hashtags!) if (tag) expect(tag).toMatch(/^#[a-z][a-z0-9_]*(\+[a-z][a-z0-9_]*)*$/);
    expect(data).toHaveLength(2);
    const people = parse((await get(`${API_BASE}/export/people.csv?hxl=true`)).body) as string[][];
    expect(people[1]![people[0]!.indexOf('incident_id')]).toBe('#event+id');
    const plain = parse((await get(`${API_BASE}/export/people.csv`)).body) as string[][];
    // Without it, the second line is a record.
    expect([made.victim!._id, made.displacement!._id]).toContain(plain[1]![0]);
    expect((await get(`${API_BASE}/export/people.csv?hxl=maybe`)).statusCode).toBe(400);
  });

  it('HXL: every #date column holds dates only, and docs/export.md documents every hashtag written (issue 52 item 7)', async () => {
    const docs = readFileSync(new URL('../../../docs/export.md', import.meta.url), 'utf8');
    for (const file of ['incidents', 'people']) {
      const [header, hashtags, ...data] = parse((await get(`${API_BASE}/export/${file}.csv?hxl=1`, editor.auth)).body, { bom: true }) as string[][];
      expect(data.length, file).toBeGreaterThan(0);
      hashtags!.forEach((tag, i) => {
        if (!tag) return;
        expect(docs, `${file}.${header![i]}: ${tag} is not documented`).toContain(`\`${tag}\``);
        // HXL: a #date value is a date (ISO 8601), whatever its attributes.
        if (tag.startsWith('#date')) for (const row of data) if (row[i]) expect(row[i], `${file}.${header![i]} (${tag})`).toMatch(/^\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?$/);
      });
    }
    const lines = parse((await get(`${API_BASE}/export/incidents.csv?hxl=1`)).body, { bom: true }) as string[][];
    expect(lines[1]![lines[0]!.indexOf('time_precision')]).toBe('#meta+date+precision');
  });

  it('datapackage.json describes both files, with the foreign key people.incident_id -> incidents.event_id', async () => {
    const pkg = JSON.parse((await get(`${API_BASE}/datapackage.json`)).body) as {
      resources: { name: string; path: string; schema?: { fields: { name: string; hxl?: string }[]; primaryKey: string; foreignKeys?: unknown[] } }[];
    };
    const incidents = pkg.resources.find((r) => r.name === 'incidents')!;
    const people = pkg.resources.find((r) => r.name === 'people')!;
    expect(incidents.path).toMatch(/\/api\/v1\.0\.0\/export\/incidents\.csv$/);
    expect(incidents.schema!.fields.map((f) => f.name)).toEqual(INCIDENT_COLUMNS.map((c) => c.name));
    expect(incidents.schema!.primaryKey).toBe('event_id');
    expect(people.schema!.fields.map((f) => f.name)).toEqual(PEOPLE_COLUMNS.map((c) => c.name));
    expect(people.schema!.foreignKeys).toEqual([{ fields: 'incident_id', reference: { resource: 'incidents', fields: 'event_id' } }]);
    expect(incidents.schema!.fields.find((f) => f.name === 'admin1_pcode')!.hxl).toBe('#adm1+code');
  });

  it('the region list carries ISO 3166-2 codes and p-codes without repeats', () => {
    const iso = REGIONS.map((r) => ('iso' in r ? r.iso : undefined)).filter(Boolean);
    const pcodes = REGIONS.map((r) => ('pcode' in r ? r.pcode : undefined)).filter(Boolean);
    expect(new Set(iso).size).toBe(iso.length);
    expect(new Set(pcodes).size).toBe(pcodes.length);
    for (const code of pcodes) expect(code).toMatch(/^ET\d{2}$/);
    for (const code of iso) expect(code).toMatch(/^ET-[A-Z]{2}$/);
  });
});
