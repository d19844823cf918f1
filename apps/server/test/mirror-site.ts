import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API_BASE } from '@app/shared';
import { template } from './fixtures/app-template';

/**
 * A stand-in web build for the mirror tests (the real one is built for the browser suite, which mirrors the real
 * pages): a renderer that reads the site's anonymous API as the app's does and links what the app's pages link (the
 * lists and their pages, each record, its image copy, the search form, signing in, the editor, the exports).
 */

const renderer = `
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => '&#' + c.charCodeAt(0) + ';');
const nav = '<nav><a href="/">Home</a> <a href="/about">About</a> <a href="/massacres">Massacres</a> <a href="/victims">Victims</a> ' +
  '<a href="/search?q=test">Search</a> <a href="/signin">Sign in</a> <a href="/admin/trash">Trash</a> <a href="/export">Download</a> ' +
  '<a href="https://example.org/elsewhere">Elsewhere</a></nav>';
const page = (main, status = 200) => ({ html: nav + '<main id="main">' + main + '</main>', stateScript: '', modules: [], status });
export async function render(url, { api }) {
  const u = new URL(url, 'http://page.invalid');
  const list = /^\\/(massacres|victims)$/.exec(u.pathname);
  const one = /^\\/(massacres|victims)\\/([^/]+)$/.exec(u.pathname);
  if (u.pathname === '/') return page('<h1>Test mirror home</h1><form role="search" method="get" action="/search"><input name="q"></form>');
  if (list) {
    const n = Number(u.searchParams.get('page') ?? 1);
    const res = await api('${API_BASE}/' + list[1] + '?limit=2&offset=' + (n - 1) * 2, { method: 'GET' });
    const items = await res.json();
    const total = Number(res.headers.get('x-total-count'));
    const next = n * 2 < total ? '<a rel="next" href="/' + list[1] + '?page=' + (n + 1) + '">Next</a>' : '';
    return page('<h1>' + list[1] + ' ' + total + '</h1><ul>' + items.map((i) => '<li><a href="/' + list[1] + '/' + i._id + '">' + esc(i.title) + '</a></li>').join('') + '</ul>' + next);
  }
  if (one) {
    const res = await api('${API_BASE}/' + one[1] + '/' + one[2], { method: 'GET' });
    if (!res.ok) return page('<h1>Not found</h1>', 404);
    const item = await res.json();
    const sources = (item.sources ?? []).map((s) => '<li>' + esc(s.title) + ' ' + esc(s.note) + '</li>').join('');
    const images = (item.images ?? []).filter((i) => i.imageUrl).map((i) => '<img alt="" src="' + esc(i.imageUrl) + '">').join('');
    return page('<h1>' + esc(item.title) + '</h1><p>' + esc(item.description) + '</p><ul>' + sources + '</ul>' + images +
      '<a href="/' + one[1] + '/edit/' + one[2] + '">Edit</a>');
  }
  if (u.pathname === '/export') return page('<a href="${API_BASE}/export.csv?category=massacres">CSV</a> <a href="${API_BASE}/datapackage.json">Package</a>');
  if (['/about', '/statistics', '/map', '/reports', '/images'].includes(u.pathname)) return page('<h1>' + u.pathname.slice(1) + '</h1>');
  return page('<h1>Not found</h1>', 404);
}`;

/** The stand-in build's folders. */
export function mirrorTestBuild(): { distDir: string; ssrDir: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'mirror-build-'));
  const distDir = path.join(root, 'dist');
  const ssrDir = path.join(root, 'dist-ssr');
  mkdirSync(path.join(distDir, '.vite'), { recursive: true });
  mkdirSync(path.join(distDir, 'assets'));
  mkdirSync(ssrDir);
  writeFileSync(path.join(distDir, 'index.html'), template);
  writeFileSync(path.join(distDir, '.vite', 'manifest.json'), JSON.stringify({ 'index.html': { file: 'assets/index-app.js', isEntry: true, css: ['assets/index-app.css'] } }));
  writeFileSync(path.join(distDir, 'assets', 'index-app.css'), 'body{font-family:test}@font-face{font-family:test;src:url(/assets/test-font.woff2)}');
  writeFileSync(path.join(distDir, 'assets', 'test-font.woff2'), 'not a real font (test)');
  writeFileSync(path.join(distDir, 'assets', 'index-app.js'), 'console.log("app")');
  writeFileSync(path.join(distDir, 'start-app.js'), "document.documentElement.dataset.started = 'yes';\n");
  writeFileSync(path.join(ssrDir, 'entry-server.js'), renderer);
  return { distDir, ssrDir };
}
