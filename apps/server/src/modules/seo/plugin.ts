import type { FastifyPluginAsync } from 'fastify';
import { CATEGORY_LIST } from '@app/shared';
import { renderFeed, renderSitemap } from './feeds';
import { linkPreviewResolver } from './meta';

/** Crawlers and readers without JavaScript may cache these briefly; new records show within minutes. */
const CACHE = 'public, max-age=300';

/**
 * What the site tells crawlers and feed readers: link-preview data in the HTML shell of list, detail and image-viewer
 * pages, /sitemap.xml, /robots.txt with the sitemap's absolute address, and RSS feeds of new records (/feed.xml and
 * /{list}/feed.xml). Everything is read as an anonymous visitor: non-public records never appear.
 * Encapsulated: it adds routes and a link-preview resolver to the web area's list, and nothing other areas use.
 * Registered after web and records, whose brand, resolver list and public reads it uses.
 */
const seoArea: FastifyPluginAsync = async (app) => {
  app.metaResolvers.push(linkPreviewResolver({ publicReads: app.publicReads, brand: app.brand }));

  app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/xml; charset=utf-8').header('cache-control', CACHE).send(await renderSitemap(app)),
  );
  app.get('/feed.xml', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/rss+xml; charset=utf-8').header('cache-control', CACHE).send(await renderFeed(app, null)),
  );
  for (const category of CATEGORY_LIST) {
    app.get(`${category.route}/feed.xml`, { schema: { hide: true } }, async (_request, reply) =>
      reply.type('application/rss+xml; charset=utf-8').header('cache-control', CACHE).send(await renderFeed(app, category)),
    );
  }
  // robots.txt names the sitemap by its absolute address (a static file cannot know the public URL). A stale web
  // build may still ship a static robots.txt: that one is served then, rather than failing on a duplicate route.
  if (!app.hasRoute({ method: 'GET', url: '/robots.txt' })) app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(['User-agent: *', 'Allow: /', 'Disallow: /dashboard', 'Disallow: /admin/', '', `Sitemap: ${app.brand.publicUrl}/sitemap.xml`, ''].join('\n')),
  );
};

export default seoArea;
