import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, getCategory } from '@app/shared';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { multipart, sampleFields, testImage } from './records-helpers';

/**
 * Reads keep records serialised between requests (records/fragments.ts). Nobody may read from them anything a fresh
 * read would not show: every write is seen by the very next read, signed in or not, and records whose JSON depends
 * on the reader (signed URLs of hidden files) are never kept.
 */
describe('serialised records kept by the reads', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof createUser>>;
  let reader: Awaited<ReturnType<typeof createUser>>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t.app, 'admin');
    reader = await createUser(t.app, 'contributor');
  });
  afterAll(async () => t.close());

  const signedIn = (url: string) => call(t.app, { method: 'GET', url, headers: reader.auth });

  async function create(slug: string, title: string, withImage = false) {
    const category = getCategory(slug)!;
    const files = withImage ? [{ field: category.media === 'images' ? 'files[]' : 'image', filename: 'test.png', type: 'image/png', data: await testImage(3) }] : [];
    const body = multipart({ ...sampleFields(category, 'Fragments test'), title }, files);
    const res = await call(t.app, { method: 'POST', url: `${API_BASE}/${slug}`, headers: { ...admin.auth, ...body.headers }, payload: body.payload });
    expect(res.status).toBe(201);
    return res.body as { _id: string };
  }

  it('answers lists and records from kept records, and shows every write on the next signed-in read', async () => {
    const { _id: id } = await create('victims', 'Fragments test A');
    const list = `${API_BASE}/victims`;
    const one = `${API_BASE}/victims/${id}`;
    expect((await signedIn(list)).body.map((r: { title: string }) => r.title)).toContain('Fragments test A');
    expect(t.app.recordFragments.get(id)).toBeDefined();
    const first = await signedIn(one);
    expect(first.body.title).toBe('Fragments test A');

    await call(t.app, { method: 'PUT', url: `${one}/edit`, headers: admin.auth, payload: { title: 'Fragments test B' } });
    expect(t.app.recordFragments.get(id)).toBeUndefined();
    const edited = await signedIn(one);
    expect(edited.body.title).toBe('Fragments test B');
    expect(edited.headers.etag).not.toBe(first.headers.etag);
    expect((await signedIn(list)).body.find((r: { _id: string }) => r._id === id).title).toBe('Fragments test B');

    await call(t.app, { method: 'PUT', url: `${API_BASE}/victims/approve/${id}`, headers: admin.auth });
    expect((await signedIn(one)).body.approved).toBe(true);

    await call(t.app, { method: 'DELETE', url: `${one}/delete`, headers: admin.auth });
    expect((await signedIn(one)).status).toBe(404);
    expect((await signedIn(list)).body.some((r: { _id: string }) => r._id === id)).toBe(false);
    await call(t.app, { method: 'PUT', url: `${API_BASE}/trash/${id}/restore`, headers: admin.auth });
    expect((await signedIn(one)).status).toBe(200);
  });

  it('answers an unchanged record with the same ETag, and 304 to it', async () => {
    const { _id: id } = await create('victims', 'Fragments test ETag');
    const one = `${API_BASE}/victims/${id}`;
    const a = await signedIn(one);
    const b = await signedIn(one);
    expect(b.headers.etag).toBe(a.headers.etag);
    const notModified = await call(t.app, { method: 'GET', url: one, headers: { ...reader.auth, 'if-none-match': String(a.headers.etag) } });
    expect(notModified.status).toBe(304);
  });

  it('never keeps a record whose files are hidden: signed-in readers get signed URLs made for them', async () => {
    const { _id: id } = await create('massacres', 'Fragments test private', true);
    await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${id}/access`, headers: admin.auth });
    const one = `${API_BASE}/massacres/${id}`;
    const read = await signedIn(one);
    expect(read.status).toBe(200);
    expect(read.body.images[0].imageUrl).toMatch(/\?v=/);
    expect(t.app.recordFragments.get(id)).toBeUndefined();
    expect((await signedIn(`${API_BASE}/massacres`)).body.some((r: { _id: string }) => r._id === id)).toBe(true);
    expect(t.app.recordFragments.get(id)).toBeUndefined();
    // Not to anonymous readers, from any path.
    expect((await call(t.app, { method: 'GET', url: one })).status).toBe(404);

    // Made public again, its files are public and the record may be kept.
    await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${id}/access`, headers: admin.auth });
    expect((await signedIn(one)).body.images[0].imageUrl).not.toMatch(/\?v=/);
    expect(t.app.recordFragments.get(id)).toBeDefined();
  });

  it('a private record without files is kept, and still shown to signed-in readers only', async () => {
    const { _id: id } = await create('events', 'Fragments test private event');
    await call(t.app, { method: 'PUT', url: `${API_BASE}/events/${id}/access`, headers: admin.auth });
    const one = `${API_BASE}/events/${id}`;
    expect((await signedIn(one)).status).toBe(200);
    expect(t.app.recordFragments.get(id)?.public).toBe(false);
    expect((await call(t.app, { method: 'GET', url: one })).status).toBe(404);
    expect((await call(t.app, { method: 'GET', url: `${API_BASE}/events` })).body.some((r: { _id: string }) => r._id === id)).toBe(false);
    // A record is read under its own category only.
    expect((await signedIn(`${API_BASE}/victims/${id}`)).status).toBe(404);
  });
});
