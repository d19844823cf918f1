import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MERGED_PARAM, filtersFromSearchParams, paths, searchFiltersSchema, searchQuerySchema, type BrandConfig } from '@app/shared';
import type { Produced } from '../cache/cached-entry';
import { cacheKey, type CacheKeyOptions } from '../cache/keys';
import { normaliseSearchQuery } from '../search/reads';
import { WEB_DIST, WEB_SSR_DIST } from '../../locations';
import type { Config } from '../../config';
import { pageRoutes } from './pages';
import { createPrerenderer } from './prerender';
import { renderShell, type MetaResolver, type PageMeta, type PageRedirect } from './shell';

/**
 * The query parameters a public page reads (a list's page number, the massacres table view, a merged record's notice);
 * any other, such as a share link's `?utm_source=`, gets the same page from the same cache entry.
 */
const PAGE_PARAMS = ['page', 'view', MERGED_PARAM] as const;

/**
 * The cache entry of a page: its path and PAGE_PARAMS. Pages that read the filters of the collection from their
 * address are keyed by the validated filters as well (the search page by its normalised query, as the search API's),
 * so each filter set is its own entry and one spelled otherwise is the same one. An address whose filters are not
 * valid is rendered (the page shows the error) but never stored, so made-up query strings cannot fill the cache.
 */
const FILTERED_PAGES = new Set(['/statistics', '/map', '/export']);

function pageCacheKey(request: FastifyRequest): { options: CacheKeyOptions; cacheable: boolean } {
  const pathname = request.url.split('?', 1)[0] ?? '/';
  if (pathname === paths.search) {
    const parsed = searchQuerySchema.safeParse(request.query ?? {});
    return parsed.success ? { options: { query: normaliseSearchQuery(parsed.data) }, cacheable: true } : { options: { params: [] }, cacheable: false };
  }
  if (!FILTERED_PAGES.has(pathname)) return { options: { params: PAGE_PARAMS }, cacheable: true };
  // Read as the page reads them (empty fields of a form sent without script are no filter), then validated.
  const parsed = searchFiltersSchema.safeParse(filtersFromSearchParams(new URL(request.url, 'http://page').searchParams));
  return parsed.success ? { options: { query: parsed.data }, cacheable: true } : { options: { params: [] }, cacheable: false };
}

function brandOf(config: Config): BrandConfig {
  return {
    siteName: config.SITE_NAME,
    hashtagWord: config.HASHTAG_WORD,
    contactEmail: config.CONTACT_EMAIL,
    socialUrl: config.SOCIAL_URL,
    publicUrl: config.publicUrl,
    relatedSites: config.RELATED_SITES,
    merchandiseUrl: config.MERCHANDISE_URL ?? '',
  };
}

/** Where a page has moved for good, if an area says so (the first that does). */
async function movedTo(redirects: readonly PageRedirect[], request: FastifyRequest): Promise<string | null> {
  const pathname = request.url.split('?', 1)[0] ?? '/';
  for (const redirect of redirects) {
    const to = await redirect(pathname);
    if (to) return to;
  }
  return null;
}

/** The build's files, each a route of its own; hashed assets are cached for good, the rest for an hour. */
async function serveAssets(app: FastifyInstance, distDir: string) {
  await app.register(fastifyStatic, {
    root: distDir,
    prefix: '/',
    index: false,
    wildcard: false,
    preCompressed: true,
    setHeaders(res, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      // The service worker is asked for again at every check, so a new version reaches readers at their next visit.
      if (path.basename(filePath) === 'sw.js') res.header('cache-control', 'no-cache');
      else res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
    },
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    brand: BrandConfig;
    /** Areas add resolvers for their routes (record detail, lists, image viewer). */
    metaResolvers: MetaResolver[];
    /** Areas add the pages that moved for good (a merged record's page): asked before a page is rendered. */
    pageRedirects: PageRedirect[];
    /**
     * The page's HTML and status: 404 for an unknown address or a record an anonymous visitor may not read. `url`: the
     * address to render (the request's own by default).
     */
    renderPage: (request: FastifyRequest, url?: string) => Promise<{ status: number; html: string }>;
  }
}

/**
 * Serves the built web app: hashed assets with immutable caching (pre-compressed .br/.gz when present) and, for every
 * other GET that is not an API call, the HTML shell with that page's metadata (client-side routes).
 */
export default fp(
  async (app, opts: { distDir?: string; ssrDir?: string }) => {
    const distDir = opts.distDir ?? WEB_DIST;
    const brand = brandOf(app.config);
    app.decorate('brand', brand);
    app.decorate('metaResolvers', [] as MetaResolver[]);
    app.decorate('pageRedirects', [] as PageRedirect[]);

    const indexFile = path.join(distDir, 'index.html');
    const hasBuild = existsSync(indexFile);
    const template = hasBuild
      ? readFileSync(indexFile, 'utf8')
      : '<!doctype html><html lang="en"><head><meta charset="utf-8"><!--app-head--></head><body><p>The web app is not built: run <code>npm run build</code>.</p></body></html>';

    const readApi = (url: string) => app.inject({ method: 'GET', url, headers: { accept: 'application/json' } });
    const prerenderer = hasBuild ? createPrerenderer({ readApi, log: app.log }, { ssrDir: opts.ssrDir ?? WEB_SSR_DIST, distDir, brand }) : null;
    if (prerenderer) app.allowInlineScript(prerenderer.startScript);

    app.decorate('renderPage', async (request: FastifyRequest, url = request.url) => {
      const pathname = url.split('?')[0] ?? '/';
      let meta: PageMeta = {
        title: '',
        description: `${brand.siteName}: documentation of the killings and displacement of the Amhara people in Ethiopia.`,
        url: `${brand.publicUrl}${pathname}`,
      };
      for (const resolve of app.metaResolvers) {
        const found = await resolve(pathname, request);
        if (found) {
          meta = { ...meta, ...found };
          break;
        }
      }
      const page = await prerenderer?.render(url);
      // A page no resolver names (search, statistics, the 404 page...) has its heading in the browser's tab, as the app
      // names it; the home page the site's name alone.
      if (page?.title && pathname !== '/') meta = { ...meta, tabTitle: page.title };
      return { status: page?.status ?? 200, html: renderShell(template, meta, brand, page) };
    });

    if (hasBuild) await serveAssets(app, distDir);

    // Pages carry link previews read from records, so they are cached with the API's public responses and cleared
    // by the same writes. Page loads send no Authorization header (the token lives in local storage).
    const sendShell = async (request: FastifyRequest, reply: import('fastify').FastifyReply) => {
      const key = pageCacheKey(request);
      // A stored page is sent to every address of its key, so it is rendered from the key, not from the address that
      // happened to ask first: parameters the key leaves out (`?ref=`, `?next=//elsewhere`) reach no visitor's links.
      const address = key.cacheable ? cacheKey(request, key.options) : request.url;
      return app.publicCache.serve(
        request,
        reply,
        async (): Promise<Produced & { cacheable?: boolean }> => {
          // Asked only when the page is not stored: a moved page is never stored (only 200s are).
          const moved = await movedTo(app.pageRedirects, request);
          if (moved) return { status: 301, headers: { location: moved, 'cache-control': 'no-cache' }, body: '', cacheable: false };
          const page = await app.renderPage(request, address);
          return {
            status: page.status,
            headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' },
            body: page.html,
            cacheable: key.cacheable,
          };
        },
        key.options,
      );
    };

    // Every page of the app has its route; any other address a browser opens gets the app's 404 page (its prerender
    // answers 404). API and media paths keep their JSON 404s.
    for (const url of pageRoutes()) app.get(url, sendShell);
    app.setNotFoundHandler((request, reply) => {
      const pathname = request.url.split('?')[0] ?? '/';
      const isApi = pathname.startsWith('/api/') || pathname.startsWith('/media/') || pathname === '/health';
      if ((request.method === 'GET' || request.method === 'HEAD') && !isApi && !/\.[a-z0-9]+$/i.test(pathname)) {
        return sendShell(request, reply);
      }
      return reply.status(404).send({ message: `No such address: ${request.method} ${pathname}` });
    });
  },
  { name: 'web', dependencies: ['db', 'public-cache', 'security'] },
);
