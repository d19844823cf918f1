import type { FastifyInstance } from 'fastify';
import { and, desc, isNull, eq } from 'drizzle-orm';
import { CATEGORIES, CATEGORY_LIST, escapeHtml, paths, type CategoryDef, type RecordDto } from '@app/shared';
import { records } from '../../db/schema';
import { previewText } from './meta';

/** Items in a feed: the newest records. */
const FEED_SIZE = 50;
/** A sitemap file holds at most 50,000 URLs (sitemaps.org). */
const SITEMAP_MAX_URLS = 50_000;

/** RSS 2.0 of the newest public records (all categories, or one), read as an anonymous visitor would. */
/** What feeds and the sitemap read: the public reads, the site's brand and (for the sitemap) the database. */
type FeedServices = Pick<FastifyInstance, 'publicReads' | 'brand' | 'db'>;

export async function renderFeed(app: FeedServices, category: CategoryDef | null): Promise<string> {
  const read = category
    ? await app.publicReads.read({ kind: 'list', category: category.slug, query: { limit: FEED_SIZE } })
    : await app.publicReads.read({ kind: 'news', query: { limit: FEED_SIZE } });
  const items = read.status === 200 ? (read.body as RecordDto[]) : [];
  const base = app.brand.publicUrl;
  const title = category ? `${category.listName} | ${app.brand.siteName}` : app.brand.siteName;
  const selfUrl = `${base}${category ? category.route : ''}/feed.xml`;
  const pageUrl = `${base}${category ? category.route : '/'}`;
  const entries = items.map((record) => {
    const url = `${base}${paths.detail(record.category, record._id)}`;
    const kind = CATEGORIES[record.category]?.listName ?? record.category;
    return [
      '    <item>',
      `      <title>${escapeHtml(record.title)}</title>`,
      `      <link>${escapeHtml(url)}</link>`,
      `      <guid isPermaLink="true">${escapeHtml(url)}</guid>`,
      `      <pubDate>${new Date(record.createdAt).toUTCString()}</pubDate>`,
      `      <category>${escapeHtml(kind)}</category>`,
      `      <description>${escapeHtml(previewText(record.description))}</description>`,
      '    </item>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    <title>${escapeHtml(title)}</title>`,
    `    <link>${escapeHtml(pageUrl)}</link>`,
    `    <atom:link href="${escapeHtml(selfUrl)}" rel="self" type="application/rss+xml"/>`,
    `    <description>${escapeHtml(`New records on ${app.brand.siteName}`)}</description>`,
    '    <language>en</language>',
    items[0] ? `    <lastBuildDate>${new Date(items[0].createdAt).toUTCString()}</lastBuildDate>` : '',
    ...entries,
    '  </channel>',
    '</rss>',
    '',
  ]
    .filter((line) => line !== '')
    .join('\n');
}

/** Every public page: the fixed pages, each list and each live public record (private ones stay out). */
export async function renderSitemap(app: FeedServices): Promise<string> {
  const base = app.brand.publicUrl;
  const fixed = [paths.home, paths.about, paths.images, paths.reports, ...CATEGORY_LIST.map((c) => c.route)];
  const rows = await app.db
    .select({ id: records.id, category: records.category, updatedAt: records.updatedAt })
    .from(records)
    .where(and(isNull(records.deletedAt), eq(records.public, true)))
    .orderBy(desc(records.createdAt))
    .limit(SITEMAP_MAX_URLS - fixed.length);
  const urls = [
    ...fixed.map((p) => `  <url><loc>${escapeHtml(`${base}${p}`)}</loc></url>`),
    ...rows
      .filter((r) => r.category in CATEGORIES)
      .map(
        (r) =>
          `  <url><loc>${escapeHtml(`${base}${paths.detail(r.category as RecordDto['category'], r.id)}`)}</loc><lastmod>${r.updatedAt.toISOString()}</lastmod></url>`,
      ),
  ];
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...urls, '</urlset>', ''].join('\n');
}
