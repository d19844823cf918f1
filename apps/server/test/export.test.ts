import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, CATEGORIES, type RecordDto } from '@app/shared';
import { EXPORT_COLUMNS } from '../src/modules/export/columns';
import { ANONYMOUS_EXPORT_LIMIT } from '../src/modules/export/plugin';
import { call } from './helpers';
import { useTestApp } from './fixtures/app';
import { multipart, sampleFields, testImage } from './records-helpers';

/** Open-data export: CSV and NDJSON of what the reader may see, with the filters of search, described by datapackage.json. */
describe('open-data export', () => {
  const { t, editor, admin } = useTestApp({ editor: 'contributor', admin: 'admin' });
  const created: Record<string, RecordDto> = {};
  let ip = 0;
  /** Each anonymous request from its own address, so the rate limit is tested on its own. */
  const anonymous = () => ({ remoteAddress: `192.0.2.${++ip}` });

  async function create(slug: 'victims' | 'massacres', fields: Record<string, string>, withImage = false): Promise<RecordDto> {
    const body = multipart(
      { ...sampleFields(CATEGORIES[slug], 'Export test'), ...fields },
      withImage ? [{ field: slug === 'victims' ? 'image' : 'files[]', filename: 'test.png', type: 'image/png', data: await testImage(ip + 7) }] : [],
    );
    const res = await call(t.app, { method: 'POST', url: `${API_BASE}/${slug}`, headers: { ...editor.auth, ...body.headers }, payload: body.payload });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }

  beforeAll(async () => {
    created.amhara = await create('victims', { title: 'Export test victim one', region: 'amhara', fullName: 'Test Person Alemu "quoted", with comma' }, true);
    created.afar = await create('victims', { title: 'Export test victim two', region: 'afar', description: 'Test text ሙከራ, line one\nline two' });
    created.massacre = await create('massacres', { title: 'Export test massacre', region: 'amhara', quantity: '7' }, true);
    created.private = await create('massacres', { title: 'Export test private massacre', region: 'amhara' });
    expect((await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${created.private._id}/access`, headers: admin.auth })).status).toBe(200);
    created.trashed = await create('victims', { title: 'Export test trashed victim', region: 'amhara' });
    expect((await call(t.app, { method: 'DELETE', url: `${API_BASE}/victims/${created.trashed._id}/delete`, headers: editor.auth })).status).toBe(200);
  });

  const csvRows = (body: string) => parse(body, { columns: true }) as Record<string, string>[];

  it('CSV parses with a CSV library, has the described columns, and matches the API record for record', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API_BASE}/export.csv`, ...anonymous() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="records-\d{4}-\d{2}-\d{2}\.csv"/);
    const rows = csvRows(res.body);
    expect(Object.keys(rows[0]!)).toEqual(EXPORT_COLUMNS.map((c) => c.name));
    const ids = rows.map((r) => r._id);
    expect(ids.sort()).toEqual([created.amhara!._id, created.afar!._id, created.massacre!._id].sort());
    for (const row of rows) {
      const api = (await call(t.app, { method: 'GET', url: `${API_BASE}/${row.category}/${row._id}` })).body as RecordDto;
      expect(row.title).toBe(api.title);
      expect(row.description).toBe(api.description);
      expect(row.region).toBe(api.region ?? '');
      expect(row.fullName ?? '').toBe((api.fullName as string | undefined) ?? '');
      expect(row.confirmed).toBe(String(api.approved));
      expect(row.createdAt).toBe(api.createdAt);
      expect(row.fileSha256).toBe(api.images.filter((f) => f.imageUrl).map((f) => f.sha256).join(' '));
    }
    const victim = rows.find((r) => r._id === created.amhara!._id)!;
    expect(victim.fullName).toBe('Test Person Alemu "quoted", with comma');
    expect(rows.find((r) => r._id === created.afar!._id)!.description).toBe('Test text ሙከራ, line one\nline two');
    expect(rows.find((r) => r._id === created.massacre!._id)!.quantity).toBe('7');
  });

  it("each row's SHA-256 is the stored original's, and its URLs serve the public copies", async () => {
    const rows = csvRows((await t.app.inject({ method: 'GET', url: `${API_BASE}/export.csv`, ...anonymous() })).body);
    const withFiles = rows.filter((r) => r.fileSha256);
    expect(withFiles.map((r) => r._id).sort()).toEqual([created.amhara!._id, created.massacre!._id].sort());
    for (const row of withFiles) {
      const stored = await t.database.query<{ sha256: string; storage_key: string }>(
        'select sha256, storage_key from media where record_id = $1 and removed_at is null order by position, created_at',
        [row._id],
      );
      expect(row.fileSha256!.split(' ')).toEqual(stored.map((m) => m.sha256));
      for (const { sha256, storage_key } of stored) {
        const original = Buffer.concat(await (await t.app.media.storage.get(storage_key)).toArray());
        expect(createHash('sha256').update(original).digest('hex')).toBe(sha256);
      }
      for (const fileUrl of row.fileUrls!.split(' ')) {
        const served = await t.app.inject({ method: 'GET', url: new URL(fileUrl).pathname });
        expect(served.statusCode, fileUrl).toBe(200);
      }
    }
  });

  it('NDJSON lines are the records as the API shows them', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API_BASE}/export.ndjson?category=victims`, ...anonymous() });
    expect(res.statusCode).toBe(200);
    const lines = res.body.trimEnd().split('\n').map((line) => JSON.parse(line) as RecordDto);
    expect(lines.map((r) => r._id).sort()).toEqual([created.amhara!._id, created.afar!._id].sort());
    for (const line of lines) {
      const api = (await call(t.app, { method: 'GET', url: `${API_BASE}/victims/${line._id}` })).body;
      expect(line).toEqual(api);
    }
  });

  it('takes the filters of search, and refuses bad ones with field errors', async () => {
    const ids = async (query: string) =>
      csvRows((await t.app.inject({ method: 'GET', url: `${API_BASE}/export.csv?${query}`, ...anonymous() })).body)
        .map((r) => r._id)
        .sort();
    expect(await ids('region=afar')).toEqual([created.afar!._id]);
    expect(await ids('region=amhara&category=massacres')).toEqual([created.massacre!._id]);
    expect(await ids('q=ሙከራ')).toEqual([created.afar!._id]);
    expect(await ids('category=orphans')).toEqual([]);
    const bad = await call(t.app, { method: 'GET', url: `${API_BASE}/export.csv?region=atlantis&from=2020-13-01`, ...anonymous() });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body).sort()).toEqual(['from', 'region']);
  });

  it('CSV for spreadsheets starts with a UTF-8 byte order mark (so Excel reads Amharic), the plain CSV does not', async () => {
    const plain = await t.app.inject({ method: 'GET', url: `${API_BASE}/export.csv`, ...anonymous() });
    const forSpreadsheets = await t.app.inject({ method: 'GET', url: `${API_BASE}/export.csv?bom=true&region=afar`, ...anonymous() });
    expect(forSpreadsheets.statusCode).toBe(200);
    expect([...forSpreadsheets.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect([...plain.rawPayload.subarray(0, 3)]).not.toEqual([0xef, 0xbb, 0xbf]);
    // The same table after the mark, filtered like the plain one.
    const rows = csvRows(forSpreadsheets.body.slice(1));
    expect(Object.keys(rows[0]!)).toEqual(EXPORT_COLUMNS.map((c) => c.name));
    expect(rows.map((r) => r._id)).toEqual([created.afar!._id]);
    expect(rows[0]!.description).toContain('ሙከራ');
    const bad = await call(t.app, { method: 'GET', url: `${API_BASE}/export.csv?bom=yes`, ...anonymous() });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['bom']);
  });

  it('never exports private or trashed records anonymously; a signed-in editor gets the private ones too', async () => {
    for (const format of ['csv', 'ndjson']) {
      const res = await t.app.inject({ method: 'GET', url: `${API_BASE}/export.${format}`, ...anonymous() });
      expect(res.body).not.toContain(created.private!._id);
      expect(res.body).not.toContain(created.trashed!._id);
      expect(res.body).not.toContain('private massacre');
    }
    const signedIn = csvRows((await t.app.inject({ method: 'GET', url: `${API_BASE}/export.csv`, headers: editor.auth })).body);
    expect(signedIn.map((r) => r._id)).toContain(created.private!._id);
    expect(signedIn.map((r) => r._id)).not.toContain(created.trashed!._id);
    expect(signedIn.find((r) => r._id === created.private!._id)!.public).toBe('false');
  });

  it('streams every record once across many batches, newest first, including records of one instant', async () => {
    // Same created_at for all (one statement): keyset steps must not skip records that share a millisecond.
    await t.database.query(
      `insert into records (category, title, description, sample, region)
       select 'orphans', 'Export test bulk ' || n, 'Test data, not real.', true, 'tigray' from generate_series(1, 2500) n`,
    );
    const rows = csvRows((await t.app.inject({ method: 'GET', url: `${API_BASE}/export.csv?category=orphans`, ...anonymous() })).body);
    expect(rows).toHaveLength(2500);
    expect(new Set(rows.map((r) => r._id)).size).toBe(2500);
    const times = rows.map((r) => Date.parse(r.createdAt!));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('describes the columns in a Frictionless Data package', async () => {
    const res = await call(t.app, { method: 'GET', url: `${API_BASE}/datapackage.json` });
    expect(res.status).toBe(200);
    const [csv] = res.body.resources;
    expect(csv.path).toBe(`${t.config.publicUrl}${API_BASE}/export.csv`);
    expect(csv.schema.fields.map((f: { name: string }) => f.name)).toEqual(EXPORT_COLUMNS.map((c) => c.name));
    expect(csv.schema.fields.find((f: { name: string }) => f.name === 'region').constraints.enum).toContain('amhara');
    expect(csv.schema.fields.find((f: { name: string }) => f.name === 'quantity').type).toBe('integer');
  });

  it('limits anonymous exports per address, not signed-in ones', async () => {
    const from = { remoteAddress: '198.51.100.9' };
    for (let i = 0; i < ANONYMOUS_EXPORT_LIMIT.max; i++) {
      expect((await t.app.inject({ method: 'GET', url: `${API_BASE}/export.ndjson?category=links`, ...from })).statusCode).toBe(200);
    }
    const refused = await t.app.inject({ method: 'GET', url: `${API_BASE}/export.ndjson?category=links`, ...from });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await t.app.inject({ method: 'GET', url: `${API_BASE}/export.ndjson?category=links`, ...anonymous() })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `${API_BASE}/export.ndjson?category=links`, headers: editor.auth, ...from })).statusCode).toBe(200);
  });
});
