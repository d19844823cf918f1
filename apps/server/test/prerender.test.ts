import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, jsonForScript, type BrandConfig } from '@app/shared';
import { pageAssets, type BuildManifest } from '../src/modules/web/prerender';
import { renderShell } from '../src/modules/web/shell';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { template } from './fixtures/app-template';

/**
 * Server-rendered public pages. The real renderer is the web app's build (its pages are tested in the browser
 * suite); here a stand-in renderer with the same contract shows how the server wires it: which API answers it gets,
 * what the page links, and that writes reach the next page view.
 */

/** A build as Vite writes it: the app's entry with a shared chunk, and a list screen with its own chunk and style. */
const manifest: BuildManifest = {
  'index.html': { file: 'assets/index-app.js', isEntry: true, imports: ['_vendor.js'], css: ['assets/index-app.css'] },
  '_vendor.js': { file: 'assets/vendor.js' },
  '_cards.js': { file: 'assets/cards.js', imports: ['_vendor.js'], css: ['assets/cards.css'] },
  'src/features/records/ListPage.tsx': { file: 'assets/ListPage.js', imports: ['_cards.js', '_vendor.js'], css: ['assets/list.css'] },
  'src/islands/start.tsx': { file: 'assets/islands.js', isEntry: true, imports: ['_vendor.js'] },
  'src/components/CopyButton.tsx': { file: 'assets/CopyButton.js', imports: ['_vendor.js'] },
};

// The stand-in renderer: lists what the API gives it, shows one massacre, fails on /events, has a not-found page for
// /nowhere (as the app's catch-all route), renders nothing for other addresses.
const renderer = `
export async function render(url, { brand, api }) {
  if (url.startsWith('/events')) throw new Error('renderer failure (test)');
  if (url.startsWith('/nowhere')) return { html: '<h1>Not found</h1>', stateScript: '', modules: [], status: 404 };
  // A pager as a page renders it from the address it is given.
  if (url.startsWith('/links')) return { html: '<a rel="next" href="' + url.replace(/[<>&"]/g, '') + '">Next</a>', stateScript: '', modules: [] };
  const one = /^\\/massacres\\/([^/?]+)$/.exec(url);
  if (one) {
    const res = await api('${API_BASE}/massacres/' + one[1], { method: 'GET' });
    const item = res.ok ? await res.json() : null;
    return { html: item ? '<h1>' + item.title.replace(/</g, '&lt;') + '</h1>' : '<p>No data has been found</p>', stateScript: '', modules: [], status: 200 };
  }
  if (!url.startsWith('/massacres')) return null;
  const res = await api('${API_BASE}/massacres?limit=50', { method: 'GET' });
  const items = await res.json();
  const html = '<h1>' + brand.siteName + ' ' + res.headers.get('x-total-count') + '</h1><ul>' +
    items.map((item) => '<li>' + item.title.replace(/</g, '&lt;') + '</li>').join('') + '</ul>';
  return { html, stateScript: '<script type="application/json" id="app-state">{}</script>', modules: ['src/features/records/ListPage.tsx'] };
}`;

/** The web app's start script, as the stand-in build ships it (with the newline an editor leaves). */
const startScript = "document.documentElement.dataset.started = 'yes';\n";

const brand: BrandConfig = {
  siteName: 'Test Site',
  hashtagWord: 'Test',
  contactEmail: 'contact@example.org',
  socialUrl: 'https://x.com/',
  publicUrl: 'https://evidence.example.test',
  relatedSites: [],
  merchandiseUrl: '',
};

describe('what a server-rendered page links', () => {
  it('the screen chunks and styles beyond the app entry, every script once, the entry first', () => {
    const assets = pageAssets(manifest, ['src/features/records/ListPage.tsx']);
    expect(assets.styles).toEqual(['/assets/list.css', '/assets/cards.css']);
    expect(assets.scripts).toEqual(['/assets/index-app.js', '/assets/vendor.js', '/assets/ListPage.js', '/assets/cards.js']);
    // Without islands (a screen's frame) the page has the app's code alone.
    expect(assets.islandScripts).toEqual([]);
  });

  it("a reading page's islands: their entry first, then their modules and what they import, never the app's or the screen's chunks", () => {
    const assets = pageAssets(manifest, ['src/features/records/ListPage.tsx'], ['src/components/CopyButton.tsx']);
    expect(assets.islandScripts).toEqual(['/assets/islands.js', '/assets/vendor.js', '/assets/CopyButton.js']);
    expect(assets.scripts[0]).toBe('/assets/index-app.js');
    expect(assets.scripts).not.toContain('/assets/islands.js');
  });

  it('the shell puts the page in #root, its data after it, its styles after the app styles, and starts the app after painting', () => {
    const html = renderShell(template, { title: 'Massacres', description: 'd', url: 'https://e.test/massacres' }, brand, {
      html: '<h1>Sample</h1>',
      stateScript: '<script type="application/json" id="app-state">{}</script>',
      styles: ['/assets/list.css'],
      scripts: ['/assets/index-app.js', '/assets/vendor.js'],
      islandScripts: ['/assets/islands.js', '/assets/vendor.js'],
      startScript: 'startTheApp();',
    });
    expect(html).toContain('<div id="root"><h1>Sample</h1></div><script type="application/json" id="app-state">{}</script>');
    expect(html).not.toContain('<script type="module"');
    expect(html).not.toContain('rel="modulepreload"');
    expect(html.indexOf('/assets/index-app.css')).toBeLessThan(html.indexOf('/assets/list.css'));
    expect(html).toContain(`<script type="application/json" id="app-code">${jsonForScript({ app: ['/assets/index-app.js', '/assets/vendor.js'], islands: ['/assets/islands.js', '/assets/vendor.js'] })}</script>`);
    // Inline: as a file it would be one more request before the largest paint.
    expect(html).toContain('<script>startTheApp();</script>');
    expect(html.indexOf('id="app-code"')).toBeLessThan(html.indexOf('<script>startTheApp();</script>'));
  });

  it('a page the server does not render keeps the build as it is', () => {
    const html = renderShell(template, { title: '', description: 'd', url: 'https://e.test/signin' }, brand, null);
    expect(html).toContain('<script type="module" crossorigin src="/assets/index-app.js"></script>');
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain('<script>');
  });
});

describe('server-rendered pages', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof createUser>>;
  const page = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(res.statusCode).toBe(200);
    return res.body;
  };
  const create = async (title: string) => {
    const res = await call(t.app, {
      method: 'POST',
      url: `${API_BASE}/massacres`,
      headers: admin.auth,
      payload: { title, description: 'Test record for the server-rendering tests, not real data.', caseNum: 'TEST-1', quantity: '2' },
    });
    expect(res.status).toBe(201);
    return res.body._id as string;
  };

  beforeAll(async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'prerender-'));
    const distDir = path.join(root, 'dist');
    const ssrDir = path.join(root, 'dist-ssr');
    mkdirSync(path.join(distDir, '.vite'), { recursive: true });
    mkdirSync(ssrDir);
    writeFileSync(path.join(distDir, 'index.html'), template);
    writeFileSync(path.join(distDir, '.vite', 'manifest.json'), JSON.stringify(manifest));
    writeFileSync(path.join(ssrDir, 'entry-server.js'), renderer);
    writeFileSync(path.join(distDir, 'start-app.js'), startScript);
    t = await createTestApp({ SITE_NAME: 'Test Site', SAMPLE_DATA: 'false' }, { webDistDir: distDir, webSsrDir: ssrDir });
    admin = await createUser(t.app, 'admin');
  });
  afterAll(async () => t?.close());

  it('carries the start script inline, and the page may run exactly that inline script', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/massacres', headers: { 'accept-encoding': 'identity' } });
    expect(res.body).toContain(`<script>${startScript.trim()}</script>`);
    const hash = createHash('sha256').update(startScript.trim()).digest('base64');
    const scriptSrc = /script-src ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1];
    expect(scriptSrc?.split(' ')).toEqual(["'self'", `'sha256-${hash}'`]);
  });

  it("renders a list from the anonymous API, with the page's assets", async () => {
    await create('Sample rendered massacre A (test)');
    const html = await page('/massacres');
    expect(html).toContain('<div id="root"><h1>Test Site 1</h1><ul><li>Sample rendered massacre A (test)</li></ul></div>');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/list.css">');
    expect(html).toContain('"/assets/ListPage.js"');
  });

  it('shows a create, an access change and a delete on the very next page view', async () => {
    const id = await create('Sample rendered massacre B (test)');
    expect(await page('/massacres')).toContain('Sample rendered massacre B (test)');
    await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${id}/access`, headers: admin.auth });
    // Private now: the renderer asks as a signed-out visitor, so the record is in no page.
    const afterPrivate = await page('/massacres');
    expect(afterPrivate).not.toContain('Sample rendered massacre B (test)');
    expect(afterPrivate).toContain('Sample rendered massacre A (test)');
    await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${id}/access`, headers: admin.auth });
    expect(await page('/massacres')).toContain('Sample rendered massacre B (test)');
    const removed = await call(t.app, { method: 'DELETE', url: `${API_BASE}/massacres/${id}/delete`, headers: admin.auth });
    expect(removed.status).toBeLessThan(300);
    expect(await page('/massacres')).not.toContain('Sample rendered massacre B (test)');
  });

  it('renders a stored page from the address it is kept under, so parameters outside its key reach no visitor (issue 37 item 4)', async () => {
    const first = await page('/links?ref=attacker&next=%2F%2Fevil.example');
    expect(first).toContain('<a rel="next" href="/links">Next</a>');
    for (const html of [first, await page('/links'), await page('/links?utm_source=share')]) {
      expect(html).not.toMatch(/attacker|evil\.example|[?&](ref|next|utm_source)=/);
    }
    expect(await page('/links?next=%2F%2Fevil.example&page=2')).toContain('<a rel="next" href="/links?page=2">Next</a>');
  });

  it('answers 404 with the rendered page for an unknown address and for a record that is missing, private or trashed', async () => {
    const status = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } })).statusCode;
    const nowhere = await t.app.inject({ method: 'GET', url: '/nowhere/at/all', headers: { 'accept-encoding': 'identity' } });
    expect(nowhere.statusCode).toBe(404);
    expect(nowhere.body).toContain('<div id="root"><h1>Not found</h1></div>');
    expect(await status('/massacres/00000000-0000-4000-8000-000000000000')).toBe(404);

    const id = await create('Sample massacre for the status tests (test)');
    expect(await page(`/massacres/${id}`)).toContain('Sample massacre for the status tests (test)');
    await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${id}/access`, headers: admin.auth });
    expect(await status(`/massacres/${id}`)).toBe(404);
    await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${id}/access`, headers: admin.auth });
    expect(await status(`/massacres/${id}`)).toBe(200);
    await call(t.app, { method: 'DELETE', url: `${API_BASE}/massacres/${id}/delete`, headers: admin.auth });
    const trashed = await t.app.inject({ method: 'GET', url: `/massacres/${id}`, headers: { 'accept-encoding': 'identity' } });
    expect(trashed.statusCode).toBe(404);
    expect(trashed.body).toContain('No data has been found');
  });

  it('sends the plain shell when the renderer fails or has nothing for the address', async () => {
    for (const url of ['/events', '/signin']) {
      const html = await page(url);
      expect(html).toContain('<div id="root"></div>');
      expect(html).toContain('<script type="module" crossorigin src="/assets/index-app.js"></script>');
    }
  });
});
