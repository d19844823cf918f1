import type { BrandConfig } from '@app/shared';

export interface PageMeta {
  title: string;
  description: string;
  /** Absolute canonical URL. */
  url: string;
  /** Absolute image URL for link previews. */
  image?: string;
  type?: 'website' | 'article';
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** JSON that is safe inside a <script type="application/json"> block. */
const safeJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * Fills the built index.html with the page's title, link-preview tags and the public brand settings, so crawlers
 * that run no JavaScript see the right preview. The template holds `<!--app-head-->` where these go.
 */
export function renderShell(template: string, meta: PageMeta, brand: BrandConfig): string {
  const title = meta.title ? `${meta.title} | ${brand.siteName}` : brand.siteName;
  const tags = [
    `<title>${escapeHtml(title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}">`,
    `<link rel="canonical" href="${escapeHtml(meta.url)}">`,
    `<meta property="og:site_name" content="${escapeHtml(brand.siteName)}">`,
    `<meta property="og:type" content="${meta.type ?? 'website'}">`,
    `<meta property="og:title" content="${escapeHtml(meta.title || brand.siteName)}">`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}">`,
    `<meta property="og:url" content="${escapeHtml(meta.url)}">`,
    meta.image ? `<meta property="og:image" content="${escapeHtml(meta.image)}">` : '',
    `<meta name="twitter:card" content="${meta.image ? 'summary_large_image' : 'summary'}">`,
    `<meta name="twitter:title" content="${escapeHtml(meta.title || brand.siteName)}">`,
    `<meta name="twitter:description" content="${escapeHtml(meta.description)}">`,
    meta.image ? `<meta name="twitter:image" content="${escapeHtml(meta.image)}">` : '',
    `<script type="application/json" id="app-config">${safeJson(brand)}</script>`,
  ]
    .filter(Boolean)
    .join('\n    ');
  return template.replace(/<title>[\s\S]*?<\/title>/, '').replace('<!--app-head-->', tags);
}
