import { describe, expect, it } from 'vitest';
import { API_BASE, MERGED_PARAM, paths } from '@app/shared';
import { call } from './helpers';
import { useTestApp } from './fixtures/app';

/**
 * A person merged into another (modules/duplicates) answers, at its page and at its API address, a permanent redirect
 * to the kept record, for everyone who may read the kept record; anyone else gets the 404 of a record that is not
 * there. Every record is made-up test data.
 */
describe('merged records redirect to the kept record', () => {
  const { t, contributor, admin } = useTestApp({ contributor: 'contributor', admin: 'admin' });

  const person = async (fullName: string) => {
    const res = await call(t.app, {
      method: 'POST',
      url: `${API_BASE}/victims`,
      headers: contributor.auth,
      payload: { title: `${fullName} (test data)`, fullName, description: 'Test data, not a real person.' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body._id as string;
  };
  const merge = async (keep: string, merged: string) => {
    const res = await call(t.app, { method: 'POST', url: `${API_BASE}/duplicates/merge`, headers: admin.auth, payload: { keep, merge: merged } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const api = (id: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: `${API_BASE}/victims/${id}`, headers });
  /** The kept record's page, with the word that makes it say a record was merged into it. */
  const keptPage = (id: string) => `${paths.detail('victims', id)}?${MERGED_PARAM}=1`;
  const page = (id: string) => t.app.inject({ method: 'GET', url: paths.detail('victims', id) });
  const readers = () => [
    { name: 'anonymous', headers: {} },
    { name: 'contributor', headers: contributor.auth },
    { name: 'admin', headers: admin.auth },
  ];

  it('answers the API address and the page with a 301 to the kept record, for every reader', async () => {
    const keep = await person('Test Mukera One');
    const merged = await person('Test Mukera Uno');
    await merge(keep, merged);
    for (const reader of readers()) {
      const res = await api(merged, reader.headers);
      expect(res.statusCode, reader.name).toBe(301);
      expect(res.headers.location, reader.name).toBe(`${API_BASE}/victims/${keep}`);
      expect(res.json().mergedInto).toBe(keep);
    }
    const res = await page(merged);
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe(keptPage(keep));
    // An address spelled in capitals is the same record.
    expect((await page(merged.toUpperCase())).headers.location).toBe(keptPage(keep));
    // The kept record's own page and API address are read as before.
    expect((await api(keep)).statusCode).toBe(200);
    expect((await page(keep)).statusCode).toBe(200);
    // A HEAD is answered as the GET.
    expect((await t.app.inject({ method: 'HEAD', url: paths.detail('victims', merged) })).statusCode).toBe(301);
  });

  it('goes straight to the record a chain of merges ends at', async () => {
    const first = await person('Test Namuna Chain A');
    const second = await person('Test Namuna Chain B');
    const last = await person('Test Namuna Chain C');
    await merge(second, first);
    await merge(last, second);
    expect((await api(first)).headers.location).toBe(`${API_BASE}/victims/${last}`);
    expect((await page(first)).headers.location).toBe(keptPage(last));
  });

  it('answers 404, as before, when nobody may read the kept record (trashed), and redirects again once it is restored', async () => {
    const keep = await person('Test Mukera Two');
    const merged = await person('Test Mukera Dos');
    await merge(keep, merged);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const pageBefore = await page(unknown);
    expect((await call(t.app, { method: 'DELETE', url: `${API_BASE}/victims/${keep}/delete`, headers: contributor.auth })).status).toBe(200);
    for (const reader of readers()) {
      const res = await api(merged, reader.headers);
      expect(res.statusCode, reader.name).toBe(404);
      expect(res.headers.location, reader.name).toBeUndefined();
      expect(res.body, reader.name).not.toContain(keep);
    }
    const res = await page(merged);
    expect(res.statusCode).toBe(pageBefore.statusCode);
    expect(res.headers.location).toBeUndefined();

    expect((await call(t.app, { method: 'PUT', url: `${API_BASE}/trash/${keep}/restore`, headers: admin.auth })).status).toBe(200);
    expect((await api(merged)).statusCode).toBe(301);
    expect((await page(merged)).headers.location).toBe(keptPage(keep));
  });

  it('leaves the addresses of other categories and of unknown records as they were', async () => {
    const unknown = '00000000-0000-4000-8000-000000000001';
    expect((await api(unknown)).statusCode).toBe(404);
    expect((await page(unknown)).headers.location).toBeUndefined();
    expect((await t.app.inject({ method: 'GET', url: paths.detail('massacres', unknown) })).headers.location).toBeUndefined();
  });
});
