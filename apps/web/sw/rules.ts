import { CATEGORY_ROUTES } from '../../../packages/shared/src/categories/routes';

/**
 * What the service worker may keep (issue 58 item 1; decisions.md §8): public reading pages and their public image
 * copies, never an answer to a signed-in reader, never the editor, the admin screens or the API.
 */

const LISTS = Object.values(CATEGORY_ROUTES) as string[];
const FIXED = new Set(['/', '/about', '/images', '/reports', '/statistics', '/map', '/export', '/mirrors', '/search', ...LISTS]);
const DETAIL = new RegExp(`^(${[...LISTS, '/images'].join('|')})/[A-Za-z0-9_-]{1,100}$`);

/** A public reading page's address (a list, a record, the fixed pages), the kind a reader saves. */
export function isReadingPage(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  return FIXED.has(path) || DETAIL.test(path);
}

/** The category (list route) a saved page belongs to, for the offline page's groups; null for the fixed pages. */
export function listOf(pathname: string): string | null {
  return LISTS.find((list) => pathname === list || pathname.startsWith(`${list}/`)) ?? null;
}

/** Whether an answer may be stored: a whole 200, public, and not marked for its reader alone. */
export function mayStore(response: Response): boolean {
  if (response.status !== 200 || response.type === 'opaque') return false;
  const control = (response.headers.get('cache-control') ?? '').toLowerCase();
  return !/\b(private|no-store)\b/.test(control) && !response.headers.has('set-cookie');
}

/** A request that carries its sender's credentials: never answered from or into the caches. */
export function hasCredentials(request: Request): boolean {
  return request.headers.has('authorization') || request.headers.has('cookie');
}
