import { API_BASE, CATEGORY_LIST, paths } from '@app/shared';

/**
 * Where each address of the live site lives in a mirror, as a file path relative to its root. A page is a folder's
 * index.html, linked by that file's name (file:// and a USB stick have no directory index); a list's page n (?page=n)
 * its own folder. Anything the mirror does not hold (signing in, the editor, the admin screens, the API) has no place:
 * its links lose their address.
 */

/** The pages read by crawling from: what the sitemap names, and the pages a reader reaches from them. */
export const SEED_PAGES: readonly string[] = [
  paths.home,
  paths.about,
  paths.images,
  paths.reports,
  paths.statistics,
  paths.map,
  paths.exportData,
  paths.mirrors,
  ...CATEGORY_LIST.map((c) => c.route),
];

const FIXED = new Set(SEED_PAGES);
const PAGED = new Set<string>([paths.images, ...CATEGORY_LIST.map((c) => c.route)]);
/** The file of a page the mirror holds (the search page is the mirror's own, see search-page.ts). */
export const SEARCH_FILE = 'search/index.html';
/** The exports, each under a fixed name (the live site's carry the day in theirs). */
export const EXPORT_FILES: Record<string, string> = {
  [`${API_BASE}/export.csv`]: 'export/records.csv',
  [`${API_BASE}/export.ndjson`]: 'export/records.ndjson',
  [`${API_BASE}/datapackage.json`]: 'export/datapackage.json',
};
export const FEED_ADDRESSES: readonly string[] = ['/feed.xml', ...CATEGORY_LIST.map((c) => `${c.route}/feed.xml`)];

const ID = '[A-Za-z0-9_-]{1,100}';
const DETAIL = new RegExp(`^(${[...CATEGORY_LIST.map((c) => c.route), paths.images].map((r) => r.replace(/[/]/g, '\\/')).join('|')})\\/(${ID})$`);
const MEDIA = /^\/media\/public\/[A-Za-z0-9._-]{1,200}$/;
const ASSET = /^\/(assets\/[A-Za-z0-9._-]{1,200}|favicon\.png)$/;

/** What an address of the site is to a mirror: a page to render, a file to copy, or nothing it holds. */
export type Target =
  | { kind: 'page'; address: string; file: string }
  | { kind: 'search'; file: string; query: string }
  | { kind: 'file'; address: string; file: string }
  | { kind: 'none' };

function folderFile(pathname: string): string {
  return pathname === '/' ? 'index.html' : `${pathname.slice(1)}/index.html`;
}

/** Where `href` (an address of the site, as a page links it) goes in the mirror. */
export function targetOf(href: string): Target {
  const url = new URL(href, 'http://site.invalid');
  const pathname = url.pathname.replace(/\/+$/, '') || '/';
  if (pathname === paths.search) {
    const q = url.searchParams.get('q');
    return { kind: 'search', file: SEARCH_FILE, query: q ? `?q=${encodeURIComponent(q)}` : '' };
  }
  if (EXPORT_FILES[pathname]) return { kind: 'file', address: pathname, file: EXPORT_FILES[pathname] };
  if (FEED_ADDRESSES.includes(pathname)) return { kind: 'file', address: pathname, file: pathname.slice(1) };
  if (MEDIA.test(pathname) || ASSET.test(pathname)) return { kind: 'file', address: pathname, file: pathname.slice(1) };
  if (PAGED.has(pathname)) {
    const page = Number(url.searchParams.get('page') ?? '1');
    if (Number.isInteger(page) && page > 1 && page < 1_000_000) {
      return { kind: 'page', address: `${pathname}?page=${page}`, file: `${pathname.slice(1)}/page/${page}/index.html` };
    }
  }
  if (FIXED.has(pathname) || DETAIL.test(pathname)) return { kind: 'page', address: pathname, file: folderFile(pathname) };
  return { kind: 'none' };
}

/** The link from the file `from` to the file `to`, both relative to the mirror's root. */
export function relativeLink(from: string, to: string): string {
  const fromParts = from.split('/').slice(0, -1);
  const toParts = to.split('/');
  let common = 0;
  while (common < fromParts.length && common < toParts.length - 1 && fromParts[common] === toParts[common]) common++;
  const up = fromParts.length - common;
  return `${'../'.repeat(up)}${toParts.slice(common).join('/')}`;
}
