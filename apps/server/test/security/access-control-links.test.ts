import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, CATEGORIES, SIGNED_LINK_WINDOW_SECONDS } from '@app/shared';
import { buildApp } from '../../src/app';
import { linkCaptures } from '../../src/db/schema';
import { call, createTestApp, createUser, type TestApp } from '../helpers';
import { multipart, sampleFields, testImage } from '../records-helpers';

/**
 * The access rules of links to files that are not public (a private record's image copies, a capture's files),
 * which a browser fetches without the reader's token: the attack of issue 37 (a contributor's links outliving the
 * deletion of the image and the trash of the record), expiry, links of another reader, and exports. A second app on
 * the same database stands for another server process. Test data only.
 */

type User = Awaited<ReturnType<typeof createUser>>;
const massacres = CATEGORIES.massacres;
const signedLinksOf = (body: unknown): string[] => JSON.stringify(body).match(/\/(?:media\/public|api\/v[\d.]+\/captures)\/[^"?\\]+\?v=[^"\\]+/g) ?? [];
const parts = (link: string) => {
  const [path, v] = link.split('?v=') as [string, string];
  const [expires, reader, mac] = v.split('.') as [string, string, string];
  return { path, expires: Number(expires), reader, mac };
};

describe('links to files that are not public', () => {
  let t: TestApp;
  let otherProcess: FastifyInstance;
  let owner: User;
  let contributor: User;
  let admin: User;

  beforeAll(async () => {
    t = await createTestApp();
    otherProcess = await buildApp({ config: t.config, database: t.database, runJobs: false, logger: false });
    await otherProcess.ready();
    owner = await createUser(t.app, 'contributor');
    contributor = await createUser(t.app, 'contributor');
    admin = await createUser(t.app, 'admin');
  }, 120_000);
  afterAll(async () => {
    await otherProcess?.close();
    await t?.close();
  });

  /** A massacre with two images, made private by an admin. */
  async function privateMassacre(): Promise<{ _id: string; images: { imageId: string }[] }> {
    const files = [1, 2].map(async (n) => ({ field: 'files[]', filename: `link-test-${n}.png`, type: 'image/png', data: await testImage(Math.floor(Math.random() * 200)) }));
    const body = multipart(sampleFields(massacres, 'Signed-link test'), await Promise.all(files));
    const created = await call(t.app, { method: 'POST', url: `${API_BASE}/massacres`, headers: { ...owner.auth, ...body.headers }, payload: body.payload });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const toggled = await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${created.body._id}/access`, headers: admin.auth });
    expect(toggled.body.public).toBe(false);
    return toggled.body;
  }

  const status = async (app: FastifyInstance, url: string, headers: Record<string, string> = {}) => (await app.inject({ method: 'GET', url, headers })).statusCode;
  const detailAs = async (user: User, id: string) => (await call(t.app, { method: 'GET', url: `${API_BASE}/massacres/${id}`, headers: user.auth })).body;

  it("the attack: a contributor's links stop, in every process, once the image is deleted and the record trashed", async () => {
    const record = await privateMassacre();
    const seen = await detailAs(contributor, record._id);
    const deletedImage = seen.images[0];
    const links = signedLinksOf(deletedImage);
    expect(links.length).toBeGreaterThan(1);
    for (const link of links) {
      expect(await status(t.app, link)).toBe(200);
      expect(await status(otherProcess, link)).toBe(200);
    }
    expect((await call(t.app, { method: 'DELETE', url: `${API_BASE}/images/${deletedImage.imageId}/delete`, headers: admin.auth })).status).toBe(200);
    for (const link of links) {
      expect(await status(t.app, link), link).toBe(404);
      expect(await status(otherProcess, link), link).toBe(404);
    }
    // The record's other image until the record is trashed, then not either.
    const kept = signedLinksOf(seen.images[1]);
    expect(await status(otherProcess, kept[0]!)).toBe(200);
    expect((await call(t.app, { method: 'DELETE', url: `${API_BASE}/massacres/${record._id}/delete`, headers: admin.auth })).status).toBe(200);
    for (const link of kept) {
      expect(await status(t.app, link), link).toBe(404);
      expect(await status(otherProcess, link), link).toBe(404);
      // Not even to a signed-in reader: the trash is not read through links.
      expect(await status(t.app, link.split('?')[0]!, contributor.auth)).toBe(404);
    }
  });

  it('signs for minutes: an expired link, or one signed for longer, is refused; every read signs anew', async () => {
    const record = await privateMassacre();
    const [link] = signedLinksOf((await detailAs(contributor, record._id)).images[0]);
    const { path, expires } = parts(link!);
    const now = Date.now() / 1000;
    expect(expires).toBeGreaterThan(now + SIGNED_LINK_WINDOW_SECONDS - 5);
    expect(expires).toBeLessThanOrEqual(now + 2 * SIGNED_LINK_WINDOW_SECONDS);

    const links = t.app.media.links!;
    const key = path.slice('/media/'.length);
    const signedAt = (msAgo: number) => `${path}?v=${links.sign(key, contributor, Date.now() - msAgo)}`;
    expect(await status(t.app, signedAt(SIGNED_LINK_WINDOW_SECONDS * 500))).toBe(200);
    expect(await status(t.app, signedAt(SIGNED_LINK_WINDOW_SECONDS * 2000 + 1000))).toBe(404);
    // A link whose MAC is right but which would live longer than links are signed for (a stolen signing key, or a
    // clock far ahead when it was made) is refused too.
    expect(await status(t.app, signedAt(-SIGNED_LINK_WINDOW_SECONDS * 3000))).toBe(404);
    // The plain address serves nothing to an anonymous visitor, and a bearer token opens it.
    expect(await status(t.app, path)).toBe(404);
    expect(await status(t.app, path, contributor.auth)).toBe(200);
    const answer = await t.app.inject({ method: 'GET', url: link! });
    expect(answer.headers['cache-control']).toBe('private, no-cache');
  });

  it("is its reader's: it names the reader sealed, stops with their account, and lends no rights to another", async () => {
    const record = await privateMassacre();
    const [mine] = signedLinksOf((await detailAs(contributor, record._id)).images[0]);
    const [owners] = signedLinksOf((await detailAs(owner, record._id)).images[0]);
    expect(mine).not.toBe(owners);
    // The account id is not readable in the link.
    expect(mine).not.toContain(contributor.id);
    expect(mine).not.toContain(contributor.id.replaceAll('-', ''));
    // Another reader's sealed id in this link does not pass its MAC.
    const a = parts(mine!);
    const b = parts(owners!);
    expect(await status(t.app, `${a.path}?v=${a.expires}.${b.reader}.${a.mac}`)).toBe(404);
    expect(await status(t.app, mine!)).toBe(200);

    await t.database.query('update users set active = false where id = $1', [contributor.id]);
    try {
      expect(await status(t.app, mine!)).toBe(404);
      expect(await status(otherProcess, mine!)).toBe(404);
      expect(await status(t.app, owners!)).toBe(200);
    } finally {
      await t.database.query('update users set active = true where id = $1', [contributor.id]);
    }
  });

  it("capture files: the editor's link opens the snapshot to nobody else with a token, and stops with the trash", async () => {
    const record = await privateMassacre();
    const bytes = Buffer.from('MIME-Version: 1.0\r\n\r\nSigned-link test snapshot (test data)\r\n');
    const key = `originals/captures/link-test/${record._id}.mhtml`;
    await t.app.media.storage.put(key, bytes, 'multipart/related', bytes.length);
    await t.app.db.insert(linkCaptures).values({
      recordId: record._id,
      field: 'evidence',
      url: 'https://example.test/cited',
      status: 'done',
      capturedAt: new Date(),
      snapshotKey: key,
      snapshotSha256: createHash('sha256').update(bytes).digest('hex'),
      snapshotSize: bytes.length,
    });
    const capturesAs = async (user: User) =>
      (await call(t.app, { method: 'GET', url: `${API_BASE}/massacres/${record._id}/captures`, headers: user.auth })).body.captures[0];
    const link: string = (await capturesAs(owner)).snapshot.url;
    expect(link).toMatch(/\/snapshot\.mhtml\?v=\d+\.[\w-]{22}\.[\w-]{32}$/);
    // Another contributor may read the record, not download its snapshot: no link for them.
    expect((await capturesAs(contributor)).snapshot.url).toBeNull();

    expect(await status(t.app, link)).toBe(200);
    expect(await status(otherProcess, link)).toBe(200);
    // Sent with another account's token, the request is that account's: the owner's link lends it nothing.
    expect(await status(t.app, link, contributor.auth)).toBe(403);
    expect((await call(t.app, { method: 'DELETE', url: `${API_BASE}/massacres/${record._id}/delete`, headers: admin.auth })).status).toBe(200);
    expect(await status(t.app, link)).toBe(404);
    expect(await status(otherProcess, link)).toBe(404);
  });

  it('export.ndjson hands out no signed link, and its links of private files serve nobody anonymous', async () => {
    const record = await privateMassacre();
    const res = await t.app.inject({ method: 'GET', url: `${API_BASE}/export.ndjson?category=massacres`, headers: contributor.auth });
    expect(res.statusCode).toBe(200);
    const rows = res.body.trim().split('\n').map((line) => JSON.parse(line) as { _id: string; images: { imageUrl: string }[] });
    const exported = rows.find((row) => row._id === record._id);
    expect(exported?.images.length).toBe(2);
    expect(res.body).not.toContain('?v=');
    for (const image of exported!.images) expect(await status(t.app, image.imageUrl)).toBe(404);
  });
});
