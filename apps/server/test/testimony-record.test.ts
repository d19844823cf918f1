import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, CATEGORIES, recordDraft } from '@app/shared';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { sampleFields } from './records-helpers';
import { multipart, solvedAltcha } from './testimony-helpers';

/**
 * A record made from a testimony ("Create a record from this", issue 56): the witness's words go in as a withheld
 * source, so once the record is approved and public, nothing the witness wrote reaches an anonymous reader or another
 * contributor through any channel. Test data only; the markers are made up.
 */
describe('a record made from a testimony keeps the witness withheld everywhere', () => {
  let t: TestApp;
  let reviewer: Awaited<ReturnType<typeof createUser>>;
  let contributor: Awaited<ReturnType<typeof createUser>>;
  const run = Math.random().toString(36).slice(2, 8).toUpperCase();
  const WITNESS = [`WITNESSWORDS${run}`, `WITNESSPLACE${run}`, `WITNESSPEOPLE${run}`, `WITNESSDAY${run}`];
  const RECORD_MARK = `TESTIMONYRECORD${run}`;
  let recordId = '';

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://testimony-record.example.test' });
    reviewer = await createUser(t.app, 'admin');
    contributor = await createUser(t.app, 'contributor');
    const passphrase = 'sample reviewer passphrase, test only';
    expect((await call(t.app, { method: 'POST', url: `${API_BASE}/testimonies/key`, headers: reviewer.auth, payload: { passphrase } })).status).toBe(201);
    const body = multipart({
      statement: `Sample statement of a test witness: ${WITNESS[0]}`,
      place: `Sample place ${WITNESS[1]}`,
      people: `Sample people ${WITNESS[2]}`,
      happenedOn: `Sample day ${WITNESS[3]}`,
      region: 'amhara',
      consent: ['publish'],
      altcha: await solvedAltcha(t.app),
    });
    const sent = await call(t.app, { method: 'POST', url: `${API_BASE}/testimonies`, payload: body.payload, headers: body.headers });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect((await call(t.app, { method: 'POST', url: `${API_BASE}/testimonies/unlock`, headers: reviewer.auth, payload: { passphrase } })).status).toBe(200);
    const queue = await call(t.app, { method: 'GET', url: `${API_BASE}/testimonies`, headers: reviewer.auth });
    const detail = await call(t.app, { method: 'GET', url: `${API_BASE}/testimonies/${queue.body[0].id}`, headers: reviewer.auth });
    expect(detail.status).toBe(200);

    // What the reviewer's "Create a record from this" gives the add form, sent as the form sends it.
    const massacres = CATEGORIES.massacres;
    const draft = recordDraft(massacres, detail.body);
    const made = await call(t.app, {
      method: 'POST',
      url: `${API_BASE}/massacres`,
      headers: reviewer.auth,
      payload: { ...sampleFields(massacres, 'Test'), ...draft, title: `${RECORD_MARK} test massacre from a testimony`, description: `${RECORD_MARK} test data` },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    recordId = made.body._id;
    expect(made.body.sources).toEqual([expect.objectContaining({ kind: 'witness', withheld: true, note: expect.stringContaining(WITNESS[0]!) })]);
    expect((await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/approve/${recordId}`, headers: reviewer.auth })).status).toBe(200);
    const used = await call(t.app, { method: 'PUT', url: `${API_BASE}/testimonies/${queue.body[0].id}/status`, headers: reviewer.auth, payload: { status: 'used', recordId } });
    expect(used.status, JSON.stringify(used.body)).toBe(200);
  });
  afterAll(async () => t?.close());

  it('shows the record, never the witness, to anonymous readers and other contributors: pages, API, search, exports, feeds, statistics', async () => {
    const channels: { name: string; url: string; api: boolean; showsRecord: boolean }[] = [
      { name: 'detail', url: `${API_BASE}/massacres/${recordId}`, api: true, showsRecord: true },
      { name: 'list', url: `${API_BASE}/massacres?limit=50`, api: true, showsRecord: true },
      { name: 'news', url: `${API_BASE}/news?limit=50`, api: true, showsRecord: true },
      { name: 'search', url: `${API_BASE}/search?q=${RECORD_MARK}`, api: true, showsRecord: true },
      { name: 'search by the witness words', url: `${API_BASE}/search?q=${WITNESS[0]}`, api: true, showsRecord: false },
      { name: 'incident suggestions', url: `${API_BASE}/incidents/suggest?q=${RECORD_MARK}`, api: true, showsRecord: true },
      { name: 'CSV export', url: `${API_BASE}/export.csv?category=massacres`, api: true, showsRecord: true },
      { name: 'NDJSON export', url: `${API_BASE}/export.ndjson?category=massacres`, api: true, showsRecord: true },
      { name: 'incidents CSV', url: `${API_BASE}/export/incidents.csv`, api: true, showsRecord: true },
      { name: 'statistics', url: `${API_BASE}/statistics`, api: true, showsRecord: false },
      { name: 'map points', url: `${API_BASE}/statistics/points?category=massacres`, api: true, showsRecord: false },
      { name: 'page', url: `/massacres/${recordId}`, api: false, showsRecord: true },
      { name: 'list page', url: '/massacres', api: false, showsRecord: true },
      { name: 'feed', url: '/feed.xml', api: false, showsRecord: true },
      { name: 'list feed', url: '/massacres/feed.xml', api: false, showsRecord: true },
    ];
    const leaks: string[] = [];
    let shown = 0;
    for (const who of [{ name: 'anonymous', headers: {} }, { name: 'another contributor', headers: contributor.auth }]) {
      for (const channel of channels) {
        // Pages and feeds are what a browser or a feed reader gets, without a token.
        if (!channel.api && who.name !== 'anonymous') continue;
        const res = await t.app.inject({ method: 'GET', url: channel.url, headers: { ...who.headers, 'accept-encoding': 'identity' } });
        expect(res.statusCode, `${channel.name} as ${who.name}`).toBe(200);
        for (const marker of WITNESS) if (res.body.includes(marker)) leaks.push(`${channel.name} showed ${marker} to ${who.name}`);
        if (channel.showsRecord) {
          expect(res.body, `${channel.name} as ${who.name} shows the record`).toContain(RECORD_MARK);
          shown++;
        }
      }
    }
    console.log(`testimony record: ${shown} channel answers showed the record, ${leaks.length} showed the witness's words`);
    expect(leaks).toEqual([]);
  });

  it("shows the witness's words to the record's editors (staff) only", async () => {
    const asReviewer = await call(t.app, { method: 'GET', url: `${API_BASE}/massacres/${recordId}`, headers: reviewer.auth });
    expect(asReviewer.raw.body).toContain(WITNESS[0]!);
    const asOther = await call(t.app, { method: 'GET', url: `${API_BASE}/massacres/${recordId}`, headers: contributor.auth });
    expect(asOther.body.sources).toEqual([{ kind: 'witness', title: "Witness testimony, withheld for the witness's safety", withheld: true }]);
  });
});
