import { appendFileSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { mkdtempSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, CATEGORIES } from '@app/shared';
import { filesUnder, sha256 } from '../src/modules/mirror/files';
import { MirrorSigner } from '../src/modules/mirror/key';
import { writeMirror } from '../src/modules/mirror/mirror';
import { verifyMirror } from '../src/modules/mirror/verify';
import { runVerifyMirror } from '../src/modules/mirror/cli';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { multipart, sampleFields, testImage } from './records-helpers';
import { mirrorTestBuild } from './mirror-site';

/**
 * The static mirror (issue 58 item 2): what it holds (only what the public reads), that its links stay inside it,
 * that its signature and manifest catch any change, that a second run rewrites only what changed, and that its
 * search index finds English and Amharic words.
 */

let t: TestApp;
let admin: Awaited<ReturnType<typeof createUser>>;
let out: string;
let signer: MirrorSigner;
const ids: Record<string, string> = {};
let original: Buffer;

const AMHARIC_WORD = 'ጭፍጨፋ';
const WITHHELD = { kind: 'witness', title: 'Testimony of test witness Q', note: 'Test witness Q lives at test address 7', withheld: true };

async function create(category: 'massacres' | 'victims', payload: Record<string, unknown>) {
  const res = await call(t.app, { method: 'POST', url: `${API_BASE}/${category}`, headers: admin.auth, payload });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body._id as string;
}

const read = (file: string) => readFileSync(path.join(out, file), 'utf8');
const allText = () => [...filesUnder(out)].map((file) => readFileSync(path.join(out, file), 'latin1')).join('\n');
const mirror = () => writeMirror(t.app, out, signer);

beforeAll(async () => {
  const build = mirrorTestBuild();
  t = await createTestApp({ SITE_NAME: 'Test Site', SAMPLE_DATA: 'false' }, { webDistDir: build.distDir, webSsrDir: build.ssrDir });
  admin = await createUser(t.app, 'admin');
  signer = MirrorSigner.forDataDir(t.dataDir);
  out = mkdtempSync(path.join(os.tmpdir(), 'mirror-out-'));
  ids.public = await create('massacres', {
    title: 'Sample mirrored massacre (test)',
    description: `Test record for the mirror tests, not real data. የሙከራ መዝገብ፡ ${AMHARIC_WORD}።`,
  });
  for (const n of [2, 3]) ids[`other${n}`] = await create('massacres', { title: `Sample other massacre ${n} (test)`, description: 'Test data.' });
  ids.private = await create('massacres', { title: 'Sample private massacre (test)', description: 'Test data.' });
  await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${ids.private}/access`, headers: admin.auth });
  ids.trashed = await create('massacres', { title: 'Sample trashed massacre (test)', description: 'Test data.' });
  expect((await call(t.app, { method: 'DELETE', url: `${API_BASE}/massacres/${ids.trashed}/delete`, headers: admin.auth })).status).toBe(200);
  ids.withheld = await create('victims', { title: 'Sample victim with testimony (test)', fullName: 'Test Person Q', description: 'Test data.', sources: [WITHHELD] });
  original = await testImage(7);
  const body = multipart(sampleFields(CATEGORIES.victims, 'Sample pictured'), [{ field: 'image', filename: 'test.png', type: 'image/png', data: original }]);
  const pictured = await call(t.app, { method: 'POST', url: `${API_BASE}/victims`, headers: { ...admin.auth, ...body.headers }, payload: body.payload });
  expect(pictured.status).toBe(201);
  ids.pictured = pictured.body._id;
  await mirror();
});
afterAll(async () => {
  await t?.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

describe('what a mirror holds', () => {
  it('every public page and record, their image copies, exports and feeds', () => {
    expect(read('index.html')).toContain('Test mirror home');
    expect(read(`massacres/${ids.public}/index.html`)).toContain('Sample mirrored massacre (test)');
    // The list's second page (two records a page here) is a page of its own.
    expect(existsSync(path.join(out, 'massacres/page/2/index.html'))).toBe(true);
    const picturedPage = read(`victims/${ids.pictured}/index.html`);
    const image = /<img alt="" src="([^"]+)"/.exec(picturedPage)?.[1];
    expect(image).toMatch(/^\.\.\/\.\.\/media\/public\//);
    expect(existsSync(path.join(out, `victims/${ids.pictured}`, image!))).toBe(true);
    for (const file of ['export/records.csv', 'export/records.ndjson', 'export/datapackage.json', 'feed.xml', 'massacres/feed.xml', 'search/index.html', 'search/index.js']) {
      expect(existsSync(path.join(out, file)), file).toBe(true);
    }
    expect(read('export/records.csv')).toContain('Sample mirrored massacre (test)');
  });

  it('no private or trashed record, no withheld testimony, no account, no original file, no screen for signed-in people', () => {
    const text = allText();
    for (const secret of ['Sample private massacre', 'Sample trashed massacre', 'test address 7', 'Test witness Q lives', admin.email]) {
      expect(text, secret).not.toContain(secret);
    }
    expect(text).toContain('Sample victim with testimony (test)');
    const files = [...filesUnder(out)];
    expect(files.filter((file) => /(^|\/)(signin|admin|dashboard|edit|api)(\/|$)/.test(file))).toEqual([]);
    expect(files.some((file) => file.includes(ids.private!) || file.includes(ids.trashed!))).toBe(false);
    const originalHash = sha256(original);
    expect(files.filter((file) => sha256(readFileSync(path.join(out, file))) === originalHash)).toEqual([]);
    // The app's scripts (they would call an API the mirror does not have) are left out; its styles and fonts are in.
    expect(read('index.html')).not.toMatch(/<script\b(?![^>]*application\/ld\+json)/);
    expect(read('assets/index-app.css')).toContain('url(test-font.woff2)');
  });

  it('links only inside itself: every relative link names a file of the mirror, none is left site-absolute', () => {
    const pages = [...filesUnder(out)].filter((file) => file.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(8);
    const dead: string[] = [];
    for (const file of pages) {
      const html = read(file);
      const links = [...html.matchAll(/\s(?:href|src|action)="([^"]*)"/g)].map((m) => m[1]!);
      for (const srcset of html.matchAll(/\ssrcset="([^"]*)"/g)) links.push(...srcset[1]!.split(',').map((c) => c.trim().split(/\s+/)[0]!));
      for (const link of links) {
        if (/^(https?:|mailto:|#)/.test(link)) continue;
        const target = path.join(out, path.dirname(file), link.split(/[?#]/)[0]!.replace(/&amp;/g, '&'));
        if (link.startsWith('/') || !existsSync(target) || !statSync(target).isFile()) dead.push(`${file}: ${link}`);
      }
    }
    expect(dead).toEqual([]);
    // Signing in and the editor are not in a mirror: their links keep their words, without an address.
    expect(read('index.html')).toContain('<a>Sign in</a>');
    expect(read('search/index.html')).toContain('src="../mirror/minisearch.js"');
  });
});

describe('verify-mirror', () => {
  const key = () => signer.publicKeyPem;

  it('passes on the mirror as written, and through the command with the key file', async () => {
    expect(await verifyMirror(out, key())).toMatchObject({ ok: true, problems: [] });
    const keyFile = path.join(t.dataDir, 'mirror-key-test.pem');
    writeFileSync(keyFile, key());
    const lines: string[] = [];
    expect(await runVerifyMirror([out, '--key', keyFile], (line) => lines.push(line))).toBe(0);
    expect(lines.join('\n')).toMatch(/every one of its \d+ files and the signature hold/);
  });

  it('fails after one byte changes, a file is added or removed, and with another key', async () => {
    const file = path.join(out, `massacres/${ids.public}/index.html`);
    const before = readFileSync(file);
    const changed = Buffer.from(before);
    changed[changed.length - 2] = changed[changed.length - 2]! ^ 1;
    writeFileSync(file, changed);
    expect((await verifyMirror(out, key())).problems).toEqual([`changed: massacres/${ids.public}/index.html`]);
    writeFileSync(file, before);

    appendFileSync(path.join(out, 'extra.html'), '<p>Added (test)</p>');
    expect((await verifyMirror(out, key())).problems).toEqual(['not listed (added): extra.html']);
    rmSync(path.join(out, 'extra.html'));

    const feed = readFileSync(path.join(out, 'feed.xml'));
    rmSync(path.join(out, 'feed.xml'));
    expect((await verifyMirror(out, key())).problems).toEqual(['missing: feed.xml']);
    writeFileSync(path.join(out, 'feed.xml'), feed);

    // A manifest edited to match a changed file no longer matches its signature.
    const manifest = readFileSync(path.join(out, 'MIRROR.sha256'), 'utf8');
    writeFileSync(path.join(out, 'MIRROR.sha256'), manifest.replace(/^[0-9a-f]{64}/, '0'.repeat(64)));
    expect((await verifyMirror(out, key())).problems).toContain('the signature of MIRROR.sha256 does not hold for this key');
    writeFileSync(path.join(out, 'MIRROR.sha256'), manifest);

    const other = MirrorSigner.forDataDir(mkdtempSync(path.join(os.tmpdir(), 'mirror-other-key-')));
    expect((await verifyMirror(out, other.publicKeyPem)).ok).toBe(false);
    expect(await runVerifyMirror([out, '--key', path.join(t.dataDir, 'mirror-key-test.pem')], () => {})).toBe(0);
    expect(await runVerifyMirror([out], () => {})).toBe(2);
  });
});

describe('a second run', () => {
  it('rewrites only what changed, and removes a record made private since', async () => {
    const unrelated = path.join(out, `massacres/${ids.other2}/index.html`);
    const unrelatedTime = statSync(unrelated).mtimeMs;
    const again = await mirror();
    expect(again.written).toBeLessThanOrEqual(2);
    expect(again.unchanged).toBeGreaterThan(again.files - 3);

    await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${ids.other3}/access`, headers: admin.auth });
    const edited = await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${ids.public}/edit`, headers: admin.auth, payload: { title: 'Sample mirrored massacre, edited (test)', description: 'Test data, edited.' } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const third = await mirror();
    expect(third.removed).toBeGreaterThanOrEqual(1);
    expect(existsSync(path.join(out, `massacres/${ids.other3}/index.html`))).toBe(false);
    expect(read(`massacres/${ids.public}/index.html`)).toContain('Sample mirrored massacre, edited (test)');
    expect(statSync(unrelated).mtimeMs).toBe(unrelatedTime);
    expect(third.written).toBeLessThan(third.files / 2);
    expect((await verifyMirror(out, signer.publicKeyPem)).ok).toBe(true);
  });
});

describe("the mirror's search", () => {
  it('finds a record by an English word and by an Amharic word, from the files the page loads', async () => {
    const edited = await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${ids.public}/edit`, headers: admin.auth, payload: { title: 'Sample mirrored massacre (test)', description: `Test data. የሙከራ መዝገብ፡ ${AMHARIC_WORD}።` } });
    expect(edited.status).toBe(200);
    await mirror();
    const window: Record<string, unknown> = {};
    const context = vm.createContext({ window, self: window, globalThis: window });
    vm.runInContext(read('mirror/minisearch.js'), context);
    vm.runInContext(read('search/index.js'), context);
    const found = vm.runInContext(
      `(function (q) { var d = window.MIRROR_SEARCH; return window.MiniSearch.loadJSON(d.index, d.options).search(q, { prefix: true, fuzzy: 0.2, combineWith: 'AND' }); })`,
      context,
    ) as (q: string) => { id: string; file: string }[];
    expect(found('mirrored').map((hit) => hit.id)).toEqual([ids.public]);
    expect(found(AMHARIC_WORD).map((hit) => hit.id)).toEqual([ids.public]);
    expect(found(AMHARIC_WORD)[0]!.file).toBe(`massacres/${ids.public}/index.html`);
    expect(found('private')).toEqual([]);
  });
});

describe('known mirrors (/api/v1.0.0/mirrors)', () => {
  const mirrorsUrl = `${API_BASE}/mirrors`;
  const copy = { name: 'Test University Library (sample)', url: 'https://mirror.example.org/amhara/', fingerprint: 'AB'.repeat(32), note: 'Nightly rsync (test)' };

  it('admins list and remove a copy with its fingerprint; everyone reads the list with the site key\'s fingerprint', async () => {
    const created = await call(t.app, { method: 'POST', url: mirrorsUrl, headers: admin.auth, payload: copy });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ name: copy.name, fingerprint: 'ab'.repeat(32) });
    const listed = await call(t.app, { method: 'GET', url: mirrorsUrl });
    expect(listed.status).toBe(200);
    expect(listed.body.siteKeyFingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(listed.body.mirrors.map((m: { name: string }) => m.name)).toEqual([copy.name]);
    const key = await t.app.inject({ method: 'GET', url: '/.well-known/mirror-key' });
    expect(key.body.trim()).toBe(signer.publicKeyPem);
    expect((await call(t.app, { method: 'DELETE', url: `${mirrorsUrl}/${created.body._id}`, headers: admin.auth })).status).toBe(204);
    expect((await call(t.app, { method: 'GET', url: mirrorsUrl })).body.mirrors).toEqual([]);
  });

  it('refuses anyone but an admin, and bad fields by name', async () => {
    const contributor = await createUser(t.app, 'contributor');
    expect((await call(t.app, { method: 'POST', url: mirrorsUrl, payload: copy })).status).toBe(401);
    expect((await call(t.app, { method: 'POST', url: mirrorsUrl, headers: contributor.auth, payload: copy })).status).toBe(403);
    const bad = await call(t.app, { method: 'POST', url: mirrorsUrl, headers: admin.auth, payload: { ...copy, url: 'javascript:alert(1)', fingerprint: 'abc' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ url: expect.stringMatching(/https:\/\//), fingerprint: expect.stringMatching(/64 hexadecimal/) });
    expect((await call(t.app, { method: 'DELETE', url: `${mirrorsUrl}/00000000-0000-4000-8000-000000000000`, headers: admin.auth })).status).toBe(404);
  });
});
