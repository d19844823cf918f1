import { cacheNames, clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { markSaved, offlinePage, type SavedPage } from './offline-page';
import { hasCredentials, isReadingPage, mayStore } from './rules';

/**
 * The site's service worker (issue 58 item 1, docs/offline.md). The shell (styles, fonts, the reading pages' scripts)
 * is precached by hashed name and replaced whole: a new version installs beside the old one and takes over only when
 * no tab runs the old one (no skipWaiting), then removes the old files; old pages kept on the device keep their
 * styles in KEPT. Public reading pages are read from the network first and kept; offline, a kept one opens with the
 * day it was saved, another gives the offline page. Nothing is kept for a signed-in reader or from a request that
 * carries credentials, nor any answer marked private or no-store.
 */
declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

const PAGES = 'offline-pages-v1';
const IMAGES = 'offline-images-v1';
const KEPT = 'offline-assets-v1';
/** Present while a reader is signed in (the web app says so at sign-in and sign-out): nothing is kept then. */
const SIGNED_IN = 'offline-signed-in-v1';
const NETWORK_TIMEOUT_MS = 6000;

const signedIn = async () => (await caches.keys()).includes(SIGNED_IN);

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

self.addEventListener('install', (event) => {
  // The styles of the version being replaced: a page saved with it still finds them offline.
  event.waitUntil(
    (async () => {
      const old = await caches.open(cacheNames.precache);
      const kept = await caches.open(KEPT);
      for (const request of await old.keys()) {
        if (!new URL(request.url).pathname.startsWith('/assets/')) continue;
        const response = await old.match(request);
        if (response) await kept.put(request.url.split('?')[0]!, response);
      }
    })(),
  );
});
// The first visit's page is served by the worker from its next request on, without a reload.
clientsClaim();

async function savePage(request: Request, response: Response): Promise<void> {
  if (!mayStore(response) || (await signedIn())) return;
  const html = await response.clone().text();
  // The page's own name, without the site's that every title ends with.
  const title = (/<title>([^<]*)<\/title>/.exec(html)?.[1]?.trim() ?? '').replace(/\s+\|\s+[^|]*$/, '');
  const headers = new Headers(response.headers);
  headers.set('x-saved-at', new Date().toISOString());
  headers.set('x-saved-title', encodeURIComponent(title));
  const key = new URL(request.url);
  key.hash = '';
  await (await caches.open(PAGES)).put(key.href, new Response(html, { status: 200, headers }));
}

export async function savedPages(): Promise<SavedPage[]> {
  const cache = await caches.open(PAGES);
  const pages: SavedPage[] = [];
  for (const request of await cache.keys()) {
    const response = await cache.match(request);
    const url = new URL(request.url);
    pages.push({ path: url.pathname + url.search, title: decodeURIComponent(response?.headers.get('x-saved-title') ?? ''), savedAt: response?.headers.get('x-saved-at') ?? '' });
  }
  return pages.sort((a, b) => a.path.localeCompare(b.path));
}

async function fromDevice(request: Request): Promise<Response> {
  const url = new URL(request.url);
  url.hash = '';
  const kept = await (await caches.open(PAGES)).match(url.href);
  const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };
  if (kept) return new Response(markSaved(await kept.text(), kept.headers.get('x-saved-at') ?? ''), { status: 200, headers });
  const styles = (await (await caches.open(cacheNames.precache)).keys()).map((r) => r.url).filter((u) => /\/assets\/index-[^/]+\.css/.test(u));
  const lang = (self.navigator.languages ?? []).some((l) => l.startsWith('am')) ? 'am' : 'en';
  return new Response(offlinePage(await savedPages(), lang, styles), { status: 200, headers });
}

async function readingPage({ request }: { request: Request }): Promise<Response> {
  try {
    const response = await fetch(request, { signal: AbortSignal.timeout(NETWORK_TIMEOUT_MS) });
    await savePage(request, response.clone()).catch(() => undefined);
    return response;
  } catch {
    return fromDevice(request);
  }
}

registerRoute(({ request, url }) => request.mode === 'navigate' && url.origin === self.location.origin && isReadingPage(url.pathname) && !hasCredentials(request), readingPage);

/** Public image copies at the size a page showed: kept as asked for, at most a few hundred. */
const keepPublic = { cacheWillUpdate: async ({ response }: { response: Response }) => (mayStore(response) && !(await signedIn()) ? response : null) };
registerRoute(
  ({ request, url }) => url.origin === self.location.origin && url.pathname.startsWith('/media/public/') && request.method === 'GET' && !hasCredentials(request),
  new CacheFirst({ cacheName: IMAGES, plugins: [keepPublic, new ExpirationPlugin({ maxEntries: 400, maxAgeSeconds: 90 * 24 * 3600 })] }),
);
/** Hashed files the shell does not precache (a screen's script), and those of earlier versions. */
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith('/assets/'),
  new CacheFirst({ cacheName: KEPT, plugins: [keepPublic, new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 90 * 24 * 3600 })] }),
);

/** Messages of the web app: { type: 'session', signedIn } at sign-in and sign-out clears what is kept. */
self.addEventListener('message', (event) => {
  const data = event.data as { type?: string; signedIn?: boolean; paths?: string[] } | null;
  if (data?.type !== 'session') return;
  event.waitUntil(
    (async () => {
      await Promise.all([caches.delete(PAGES), caches.delete(IMAGES)]);
      if (data.signedIn) await (await caches.open(SIGNED_IN)).put('/signed-in', new Response('1'));
      else await caches.delete(SIGNED_IN);
      event.ports[0]?.postMessage({ done: true });
    })(),
  );
});
