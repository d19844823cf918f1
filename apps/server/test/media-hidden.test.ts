import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, getCategory } from '@app/shared';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { multipart, sampleFields, testImage } from './records-helpers';

/**
 * Hidden means hidden: the public copies of a file on a private or trashed record, or of a deleted file, are not
 * served to anonymous visitors (404), in this process and the cache alike, and come back when the record does.
 */
describe('public copies of hidden records and deleted files', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof createUser>>;
  const image = () => testImage(7); // the same bytes on every record: identical images must not share a URL

  async function create(slug: string): Promise<{ _id: string; images?: { imageId: string; imageUrl: string }[]; imageUrl?: string }> {
    const category = getCategory(slug)!;
    const field = category.media === 'images' ? 'files[]' : 'image';
    const body = multipart(sampleFields(category, 'Hidden-copies test'), [{ field, filename: 'same.png', type: 'image/png', data: await image() }]);
    const res = await call(t.app, { method: 'POST', url: `${API_BASE}/${slug}`, headers: { ...admin.auth, ...body.headers }, payload: body.payload });
    expect(res.status).toBe(201);
    return res.body;
  }

  /** Every stored public copy, as the storage lists it: the walk does not rely on what the API chooses to show. */
  async function everyServedName(): Promise<string[]> {
    const names: string[] = [];
    for await (const { key } of t.app.media.storage.list()) if (key.startsWith('public/')) names.push(key.slice('public/'.length));
    return names;
  }

  /** Names whose file is on a live, public record and not deleted: the only ones an anonymous visitor may fetch. */
  async function namesThatShouldBeServed(): Promise<Set<string>> {
    const rows = await t.database.query<{ key: string }>(
      `select f.key from media_public_files f join media m on m.id = f.media_id
        join records r on r.id = m.record_id
       where m.removed_at is null and r.deleted_at is null and r.public`,
    );
    return new Set(rows.map((r) => r.key.slice('public/'.length)));
  }

  async function walk() {
    const allowed = await namesThatShouldBeServed();
    const served: string[] = [];
    const leaked: string[] = [];
    for (const name of await everyServedName()) {
      const res = await t.app.inject({ method: 'GET', url: `/media/public/${name}` });
      if (res.statusCode === 200) served.push(name);
      if (res.statusCode === 200 && !allowed.has(name)) leaked.push(name);
      if (res.statusCode !== 200 && allowed.has(name)) throw new Error(`${name} should be served, answered ${res.statusCode}`);
    }
    return { served, leaked, allowed };
  }

  const urlsOf = (record: { images?: { imageUrl: string }[]; imageUrl?: string }) =>
    record.images ? record.images.map((i) => i.imageUrl) : [record.imageUrl!];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t.app, 'admin');
  });
  afterAll(async () => t.close());

  it('serves no copy of a private or trashed record or of a deleted image, and serves them again when restored', async () => {
    const shown = await create('massacres');
    const madePrivate = await create('massacres');
    const trashed = await create('victims');
    const withDeletedImage = await create('events');

    // The same image on two records: its public URLs differ, so hiding one record hides nothing of the other.
    expect(urlsOf(shown)[0]).not.toBe(urlsOf(madePrivate)[0]);

    expect((await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${madePrivate._id}/access`, headers: admin.auth })).status).toBe(200);
    expect((await call(t.app, { method: 'DELETE', url: `${API_BASE}/victims/${trashed._id}/delete`, headers: admin.auth })).status).toBe(200);
    const deletedImage = withDeletedImage.images![0]!.imageId;
    expect((await call(t.app, { method: 'DELETE', url: `${API_BASE}/images/${deletedImage}/delete`, headers: admin.auth })).status).toBe(200);

    const after = await walk();
    expect(after.leaked).toEqual([]);
    const hiddenUrls = [...urlsOf(madePrivate), ...urlsOf(trashed), ...urlsOf(withDeletedImage)];
    for (const url of hiddenUrls) expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    for (const url of urlsOf(shown)) expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    console.log(`hidden copies: ${after.served.length} of ${(await everyServedName()).length} stored copies served, 0 of a hidden record or file`);

    // Back again: the restored record and the record made public show their copies at once.
    expect((await call(t.app, { method: 'PUT', url: `${API_BASE}/trash/${trashed._id}/restore`, headers: admin.auth })).status).toBe(200);
    expect((await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${madePrivate._id}/access`, headers: admin.auth })).status).toBe(200);
    for (const url of [...urlsOf(madePrivate), ...urlsOf(trashed)]) expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    expect((await walk()).leaked).toEqual([]);
  });

  it("gives a signed-in editor signed URLs for a private record's images, which work only as given", async () => {
    const record = await create('massacres');
    await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${record._id}/access`, headers: admin.auth });
    const asEditor = await call(t.app, { method: 'GET', url: `${API_BASE}/massacres/${record._id}`, headers: admin.auth });
    const signedUrl: string = asEditor.body.images[0].imageUrl;
    expect(signedUrl).toMatch(/\?v=\d+\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{32}$/);

    const res = await t.app.inject({ method: 'GET', url: signedUrl });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    const [plain, signature] = signedUrl.split('?v=') as [string, string];
    expect((await t.app.inject({ method: 'GET', url: plain })).statusCode).toBe(404);
    const tampered = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    expect((await t.app.inject({ method: 'GET', url: `${plain}?v=${tampered}` })).statusCode).toBe(404);
    const [expires, reader, mac] = signature.split('.') as [string, string, string];
    expect((await t.app.inject({ method: 'GET', url: `${plain}?v=${Number(expires) - 3 * 86_400}.${reader}.${mac}` })).statusCode).toBe(404);
    // Another copy's signature does not open this one.
    const other = asEditor.body.images[0].variants.find((v: { url: string }) => !v.url.startsWith(plain)).url as string;
    expect((await t.app.inject({ method: 'GET', url: `${other.split('?v=')[0]}?v=${signature}` })).statusCode).toBe(404);
  });
});
