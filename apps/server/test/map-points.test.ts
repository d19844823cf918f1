import { describe, expect, it } from 'vitest';
import { API_BASE, type MapPoint, type MapPointsResponse } from '@app/shared';
import { call } from './helpers';
import { useTestApp } from './fixtures/app';

/**
 * The map's points (GET /statistics/points): the massacres and events with coordinates that the reader may read, each
 * rounded to its precision for every reader, filtered as the map's counts are. Every record is test data.
 */
describe('map points', () => {
  const { t, owner, admin } = useTestApp({ owner: 'contributor', admin: 'admin' });
  const url = (query = '') => `${API_BASE}/statistics/points${query}`;

  async function create(category: string, fields: Record<string, string>) {
    const res = await call(t.app, {
      method: 'POST',
      url: `${API_BASE}/${category}`,
      headers: owner.auth,
      payload: { title: `Test ${category} (test data)`, description: 'Test data, not a real record.', ...fields },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { _id: string };
  }

  const read = async (query = '', headers: Record<string, string> = {}) => {
    const res = await call(t.app, { method: 'GET', url: url(query), headers });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as MapPointsResponse;
  };
  const pointOf = (answer: MapPointsResponse, id: string): MapPoint | undefined => answer.points.find((p) => p._id === id);
  const at = (latitude: string, longitude: string, geoPrecision: string) => ({ latitude, longitude, geoPrecision });

  it('draws live incidents with coordinates only, each rounded to its precision for every reader, its editor too', async () => {
    const place = ['9.123456', '38.765432'] as const;
    const expected: Record<string, [number, number]> = {
      exact: [9.12346, 38.76543],
      town: [9.12, 38.77],
      woreda: [9.1, 38.8],
      zone: [9, 39],
      region: [9, 39],
    };
    const made = new Map<string, string>();
    for (const precision of Object.keys(expected)) {
      made.set(precision, (await create('massacres', { ...at(...place, precision), title: `Test massacre at ${precision} precision (test data)`, location: 'Test place', happenedOn: '2021-04-05T00:00:00' }))._id);
    }
    const event = await create('events', { ...at('10.5', '39.25', 'town'), title: 'Test event with a place (test data)', city: 'Test city', startAt: '2022-01-02T10:00:00' });
    const placeless = await create('massacres', { title: 'Test massacre without a place (test data)' });
    const person = await create('victims', { fullName: 'Test person (test data)', region: 'amhara' });

    for (const headers of [{}, owner.auth, admin.auth]) {
      const answer = await read('', headers);
      for (const [precision, id] of made) {
        const point = pointOf(answer, id)!;
        expect(point, precision).toBeDefined();
        expect([point.latitude, point.longitude], precision).toEqual(expected[precision]);
        expect(point.geoPrecision).toBe(precision);
        expect(point).toMatchObject({ category: 'massacres', date: '2021-04-05', location: 'Test place' });
      }
      expect(pointOf(answer, event._id)).toMatchObject({ category: 'events', latitude: 10.5, longitude: 39.25, date: '2022-01-02', location: 'Test city' });
      expect(pointOf(answer, placeless._id)).toBeUndefined();
      expect(pointOf(answer, person._id)).toBeUndefined();
      // Nothing of the place as entered reaches any reader: no field of the answer holds more digits than the public sees.
      expect(JSON.stringify(answer)).not.toContain('9.123456');
      expect(answer.total).toBe(answer.points.length);
    }
    // Newest incident first.
    const dates = (await read()).points.map((p) => p.date ?? '');
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('never shows a private or trashed incident to an anonymous reader, even after an editor read the same filters', async () => {
    const hidden = await create('massacres', { ...at('12.25', '37.75', 'woreda'), region: 'tigray', title: 'Test private massacre (test data)' });
    const toggled = await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${hidden._id}/access`, headers: admin.auth });
    expect(toggled.body.public).toBe(false);
    const trashed = await create('events', { ...at('7.5', '36.5', 'zone'), region: 'tigray', title: 'Test trashed event (test data)' });
    expect((await call(t.app, { method: 'DELETE', url: `${API_BASE}/events/${trashed._id}/delete`, headers: owner.auth })).status).toBe(200);

    // The editor asks first: what they get is theirs alone (never stored for anonymous readers).
    const signed = await call(t.app, { method: 'GET', url: url('?region=tigray'), headers: owner.auth });
    expect(signed.headers['cache-control']).toBe('private, no-cache');
    expect(pointOf(signed.body, hidden._id)).toMatchObject({ latitude: 12.3, longitude: 37.8 });
    expect(pointOf(signed.body, trashed._id)).toBeUndefined();

    for (let i = 0; i < 2; i++) {
      // Twice: produced, then from the public cache.
      const anonymous = await call(t.app, { method: 'GET', url: url('?region=tigray') });
      expect(anonymous.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
      expect(anonymous.body).toEqual({ points: [], total: 0 });
      expect(anonymous.raw.body).not.toContain('Test private massacre');
    }
    expect(pointOf(await read(), hidden._id)).toBeUndefined();
    expect(pointOf(await read('', admin.auth), trashed._id)).toBeUndefined();
  });

  it('follows the filters of the map: category, region, dates, status and words', async () => {
    const afar = await create('massacres', { ...at('11.75', '41', 'town'), region: 'afar', happenedOn: '2019-02-03T00:00:00', title: 'Test massacre Zebrafinch (test data)' });
    expect(pointOf(await read('?region=afar'), afar._id)).toBeDefined();
    expect(pointOf(await read('?region=amhara'), afar._id)).toBeUndefined();
    expect(await read('?category=victims')).toEqual({ points: [], total: 0 });
    expect(pointOf(await read('?category=massacres&from=2019-01-01&to=2019-12-31'), afar._id)).toBeDefined();
    expect(pointOf(await read('?from=2020-01-01'), afar._id)).toBeUndefined();
    expect(pointOf(await read('?confirmed=true'), afar._id)).toBeUndefined();
    expect(pointOf(await read('?confirmed=false'), afar._id)).toBeDefined();
    const words = await read('?q=Zebrafinch');
    expect(words.points.map((p) => p._id)).toEqual([afar._id]);
  });

  it('refuses malformed filters with the field named, and is in the OpenAPI document', async () => {
    const bad = await call(t.app, { method: 'GET', url: url('?region=nowhere&from=2021-13-01') });
    expect(bad.status).toBe(400);
    expect(bad.body.region).toBeTruthy();
    expect(bad.body.from).toBeTruthy();
    const doc = await call(t.app, { method: 'GET', url: '/api/docs/json' });
    const operation = doc.body.paths[`${API_BASE}/statistics/points`]?.get;
    expect(operation?.summary).toMatch(/coordinates/);
  });
});
