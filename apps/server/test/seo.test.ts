import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, CATEGORIES } from '@app/shared';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { multipart, sampleFields, testImage } from './records-helpers';

/** Link previews, sitemap, robots.txt and feeds: what a crawler that runs no JavaScript receives. */
let t: TestApp;
let editor: Awaited<ReturnType<typeof createUser>>;

const LONG_DESCRIPTION = `## Sample heading\n\n**Sample test record**, not real data. ${'Words of a long sample description. '.repeat(12)}`;

function metaContent(html: string, attr: 'property' | 'name', key: string): string | undefined {
  const match = html.match(new RegExp(`<meta ${attr}="${key}" content="([^"]*)"`));
  return match?.[1]?.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}

async function createRecord(slug: 'victims' | 'massacres', fields: Record<string, string>, withImage: boolean) {
  const category = CATEGORIES[slug];
  const files = withImage ? [{ field: slug === 'massacres' ? 'files[]' : 'image', filename: 'sample.png', type: 'image/png', data: await testImage(3) }] : [];
  const body = multipart({ ...sampleFields(category, 'SEO'), ...fields }, files);
  const res = await call(t.app, { method: 'POST', url: `${API_BASE}/${slug}`, headers: { ...editor.auth, ...body.headers }, payload: body.payload });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { _id: string; images: { imageId: string }[] };
}

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://evidence.example.test' });
  editor = await createUser(t.app, 'admin');
});
afterAll(async () => t?.close());

describe('link previews in the HTML shell', () => {
  it("a detail page carries the record's title, plain-text description (200 characters) and absolute image", async () => {
    const record = await createRecord('victims', { title: 'Sample SEO victim record', description: LONG_DESCRIPTION }, true);
    const res = await t.app.inject({ method: 'GET', url: `/victims/${record._id}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    const html = res.body;
    expect(metaContent(html, 'property', 'og:title')).toBe('Sample SEO victim record');
    expect(html).toContain('<title>Sample SEO victim record | ');
    const description = metaContent(html, 'property', 'og:description')!;
    expect(description.startsWith('Sample heading Sample test record, not real data. Words of a long')).toBe(true);
    expect(description).not.toMatch(/[#*]/);
    expect(description.length).toBeLessThanOrEqual(200);
    expect(metaContent(html, 'name', 'twitter:description')).toBe(description);
    const image = metaContent(html, 'property', 'og:image');
    expect(image).toMatch(/^https:\/\/evidence\.example\.test\/media\//);
    expect(metaContent(html, 'property', 'og:url')).toBe(`https://evidence.example.test/victims/${record._id}`);
    expect(html).toContain(`<link rel="canonical" href="https://evidence.example.test/victims/${record._id}">`);
    expect(metaContent(html, 'name', 'twitter:card')).toBe('summary_large_image');
    // The preview image is really served.
    const file = await t.app.inject({ method: 'GET', url: image!.replace('https://evidence.example.test', '') });
    expect(file.statusCode).toBe(200);
  });

  it('escapes record text in the tags', async () => {
    const record = await createRecord('victims', { title: 'Sample "quoted" <b>title</b>', description: 'Sample & test <script>alert(1)</script> text.' }, false);
    const html = (await t.app.inject({ method: 'GET', url: `/victims/${record._id}` })).body;
    expect(html).not.toContain('<b>title</b>');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(metaContent(html, 'property', 'og:title')).toBe('Sample "quoted" <b>title</b>');
    expect(metaContent(html, 'property', 'og:image')).toBeUndefined();
  });

  it('a non-public massacre gives anonymous requests no preview data', async () => {
    const record = await createRecord('massacres', { title: 'Sample private massacre record', description: 'Sample private text, test only.' }, true);
    const access = await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${record._id}/access`, headers: editor.auth });
    expect(access.status).toBe(200);
    expect(access.body.public).toBe(false);
    const html = (await t.app.inject({ method: 'GET', url: `/massacres/${record._id}` })).body;
    expect(html).not.toContain('Sample private massacre record');
    expect(html).not.toContain('Sample private text');
    expect(metaContent(html, 'property', 'og:image')).toBeUndefined();
    // Even a signed-in browser's page request gets no private preview (previews are read as anonymous).
    const signedIn = (await t.app.inject({ method: 'GET', url: `/massacres/${record._id}`, headers: editor.auth })).body;
    expect(signedIn).not.toContain('Sample private massacre record');
  });

  it('the image viewer and the lists have their own previews; unknown ids get the default', async () => {
    const record = await createRecord('massacres', { title: 'Sample gallery massacre record' }, true);
    const imageId = record.images[0]!.imageId;
    const viewer = (await t.app.inject({ method: 'GET', url: `/images/${imageId}` })).body;
    expect(metaContent(viewer, 'property', 'og:title')).toBe('Sample gallery massacre record');
    expect(metaContent(viewer, 'property', 'og:image')).toMatch(/^https:\/\/evidence\.example\.test\/media\//);
    const list = (await t.app.inject({ method: 'GET', url: '/displacements' })).body;
    expect(metaContent(list, 'property', 'og:title')).toBe('Displaced People');
    const unknown = (await t.app.inject({ method: 'GET', url: '/victims/00000000-0000-4000-8000-000000000000' })).body;
    expect(metaContent(unknown, 'property', 'og:title')).toBe(t.app.brand.siteName);
    // Not a server error: 404 when the web app's server renderer is built (it asks the API for the record), the plain
    // shell otherwise (the statuses themselves are tested in prerender.test.ts with a renderer of its own).
    const notUuid = await t.app.inject({ method: 'GET', url: '/victims/not-an-id' });
    expect([200, 404]).toContain(notUuid.statusCode);
  });
});

describe('the site in every page\'s metadata', () => {
  it('an Organization in JSON-LD carries the contact e-mail and the social link (sameAs)', async () => {
    for (const address of ['/', '/victims', '/dashboard']) {
      const html = (await t.app.inject({ method: 'GET', url: address })).body;
      const block = html.match(/<script type="application\/ld\+json">([^<]*)<\/script>/);
      expect(block, address).not.toBeNull();
      const organization = JSON.parse(block![1]!) as Record<string, unknown>;
      expect(organization).toMatchObject({
        '@context': 'https://schema.org',
        '@type': 'Organization',
        name: t.app.brand.siteName,
        url: 'https://evidence.example.test',
        email: t.app.brand.contactEmail,
        sameAs: [t.app.brand.socialUrl],
      });
    }
  });
});

describe('sitemap, robots.txt and feeds', () => {
  it('the sitemap lists public records and leaves out private ones', async () => {
    const shown = await createRecord('victims', { title: 'Sample sitemap victim' }, false);
    const hidden = await createRecord('massacres', { title: 'Sample sitemap private massacre' }, false);
    await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${hidden._id}/access`, headers: editor.auth });
    const res = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/xml/);
    expect(res.body).toContain('<loc>https://evidence.example.test/about</loc>');
    expect(res.body).toContain('<loc>https://evidence.example.test/educations</loc>');
    expect(res.body).toContain(`<loc>https://evidence.example.test/victims/${shown._id}</loc>`);
    expect(res.body).not.toContain(hidden._id);
  });

  it('robots.txt names the sitemap by its absolute address', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Sitemap: https://evidence.example.test/sitemap.xml');
    expect(res.body).toContain('Disallow: /dashboard');
  });

  it('feeds carry the newest public records, all categories and per category', async () => {
    const record = await createRecord('victims', { title: 'Sample feed victim & co', description: '**Sample** feed text, test only.' }, false);
    const all = await t.app.inject({ method: 'GET', url: '/feed.xml' });
    expect(all.statusCode).toBe(200);
    expect(all.headers['content-type']).toMatch(/application\/rss\+xml/);
    expect(all.body).toContain('<title>Sample feed victim &amp; co</title>');
    expect(all.body).toContain(`<link>https://evidence.example.test/victims/${record._id}</link>`);
    expect(all.body).toContain('<description>Sample feed text, test only.</description>');
    expect(all.body).not.toContain('Sample private massacre record');
    const victims = await t.app.inject({ method: 'GET', url: '/victims/feed.xml' });
    expect(victims.body).toContain(record._id);
    const massacres = await t.app.inject({ method: 'GET', url: '/massacres/feed.xml' });
    expect(massacres.statusCode).toBe(200);
    expect(massacres.body).not.toContain(record._id);
    expect(massacres.body).not.toContain('Sample private massacre record');
    const blogs = await t.app.inject({ method: 'GET', url: '/educations/feed.xml' });
    expect(blogs.statusCode).toBe(200);
    expect(blogs.body).toContain('<rss version="2.0"');
  });
});
