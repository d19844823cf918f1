import type { FastifyRequest } from 'fastify';
import { escapeHtml, jsonForScript, type BrandConfig } from '@app/shared';

export interface PageMeta {
  title: string;
  description: string;
  /** Absolute canonical URL. */
  url: string;
  /** Absolute image URL for link previews. */
  image?: string;
  type?: 'website' | 'article';
  /** The browser tab's name where the preview has no title of its own: the page's heading (link previews keep the site's). */
  tabTitle?: string;
}

/** Resolves a page's link-preview data from its path; null when it has nothing specific (the default is used). */
export type MetaResolver = (pathname: string, request: FastifyRequest) => Promise<Partial<PageMeta> | null>;

/** The address a page has moved to for good (answered 301), from its path; null when it has not moved. */
export type PageRedirect = (pathname: string) => Promise<string | null>;

/** A page the server rendered: its markup, the data it came from, and the app's scripts and the screen's styles. */
export interface PrerenderedBody {
  html: string;
  stateScript: string;
  /** The screen's stylesheets beyond the app's own. */
  styles: string[];
  /** The app's entry first, then every module the page needs (the app's and the screen's). */
  scripts: string[];
  /** The islands' entry first, then their modules: a signed-out reader's code in English (none: the app's only). */
  islandScripts: string[];
  /** The web app's start-app.js: starts those scripts once the page is painted. */
  startScript: string;
}

/**
 * The site as an Organization (schema.org, JSON-LD): its name, address, contact e-mail and social profile, which search
 * engines and link previews read from every page's metadata.
 */
function organization(brand: BrandConfig) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: brand.siteName,
    ...(brand.publicUrl ? { url: brand.publicUrl } : {}),
    email: brand.contactEmail,
    sameAs: [brand.socialUrl].filter(Boolean),
  };
}

/**
 * Fills the built index.html with the page's title, link-preview tags and the public brand settings, so crawlers
 * that run no JavaScript see the right preview. The template holds `<!--app-head-->` where these go.
 */
export function renderShell(template: string, meta: PageMeta, brand: BrandConfig, body?: PrerenderedBody | null): string {
  const named = meta.title || meta.tabTitle;
  const title = named ? `${named} | ${brand.siteName}` : brand.siteName;
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
    `<script type="application/json" id="app-config">${jsonForScript(brand)}</script>`,
    `<script type="application/ld+json">${jsonForScript(organization(brand))}</script>`,
  ]
    .filter(Boolean)
    .join('\n    ');
  const page = template.replace(/<title>[\s\S]*?<\/title>/, '').replace('<!--app-head-->', () => tags);
  if (!body) return page;
  // After the app's own styles, so the screen's come later in the cascade, as when the app loads them itself; they
  // hold the first paint like the app's (no unstyled flash). The app's scripts are started by the start script once
  // the page is painted, instead of by the build's <script type="module"> and modulepreload links. That script is
  // inline: as a file it would be one more request before the largest paint on a slow connection.
  const head = [
    ...body.styles.map((href) => `<link rel="stylesheet" crossorigin href="${escapeHtml(href)}">`),
    `<script type="application/json" id="app-code">${jsonForScript({ app: body.scripts, islands: body.islandScripts })}</script>`,
    `<script>${body.startScript}</script>`,
  ].join('\n    ');
  return page
    .replace(/\s*<script type="module"[^>]*><\/script>/g, '')
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
    .replace('</head>', () => `  ${head}\n  </head>`)
    .replace('<div id="root"></div>', () => `<div id="root">${body.html}</div>${body.stateScript}`);
}
