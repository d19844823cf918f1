import { escapeHtml } from '@app/shared';
import { relativeLink, targetOf, type Target } from './addresses';

/**
 * A rendered page made into a mirror's file: its links to the site made relative (to files the mirror holds), links
 * to what the mirror does not hold (signing in, the editor) without an address, and its scripts taken out. A reading
 * page is complete without JavaScript; the app's scripts would only call an API a mirror does not have (and module
 * scripts do not load from file://).
 */

const TAG = /<(a|link|img|source|form|video|audio|track)\b[^>]*>/gi;
const URL_ATTRIBUTE = /\s(href|src|action|poster)="([^"]*)"/gi;
const SRCSET = /\ssrcset="([^"]*)"/gi;
const SCRIPT = /<script\b[^>]*>[\s\S]*?<\/script>/gi;
const PRELOAD = /<link\b[^>]*rel="modulepreload"[^>]*>/gi;
/** The link that names the page's address on the live site, which stays absolute. */
const SITE_LINK = /\srel="canonical"/i;
/** A file:// page may not load a stylesheet asked for with CORS (its origin is opaque): the mirror asks plainly. */
const CROSSORIGIN = /\scrossorigin(="[^"]*")?(?=[\s>/])/gi;

export interface Rewritten {
  html: string;
  /** What the page links that the mirror holds: pages to render and files to copy. */
  linked: Target[];
}

function decodeAmp(value: string): string {
  return value.replace(/&amp;/g, '&');
}

export function rewritePage(html: string, file: string, publicUrl: string): Rewritten {
  const linked: Target[] = [];
  const local = (raw: string): string | null => {
    const value = decodeAmp(raw.trim());
    if (value.startsWith(`${publicUrl}/`) || value === publicUrl) return value.slice(publicUrl.length) || '/';
    return value.startsWith('/') && !value.startsWith('//') ? value : null;
  };
  /** The mirror's link for a site address, or null when the mirror does not hold it. */
  const mapped = (raw: string): string | null | undefined => {
    const address = local(raw);
    if (address === null) return undefined;
    const hash = address.includes('#') ? address.slice(address.indexOf('#')) : '';
    const target = targetOf(address.split('#')[0]!);
    if (target.kind === 'none') return null;
    linked.push(target);
    return relativeLink(file, target.file) + (target.kind === 'search' ? target.query : '') + hash;
  };

  const out = html
    .replace(SCRIPT, (script) => (/type="application\/ld\+json"/.test(script) ? script : ''))
    .replace(PRELOAD, '')
    .replace(TAG, (tag) => {
      if (SITE_LINK.test(tag) && /^<link/i.test(tag)) return tag;
      return tag
        .replace(CROSSORIGIN, '')
        .replace(URL_ATTRIBUTE, (whole, name: string, value: string) => {
          const link = mapped(value);
          if (link === undefined) return whole;
          // What the mirror does not hold keeps its text but loses its address (a form its action: it is not sent).
          if (link === null) return name.toLowerCase() === 'href' || name.toLowerCase() === 'action' ? '' : whole;
          return ` ${name}="${escapeHtml(link)}"`;
        })
        .replace(SRCSET, (whole, value: string) => {
          const parts = value.split(',').map((candidate) => {
            const [address, ...size] = candidate.trim().split(/\s+/);
            const link = address ? mapped(address) : undefined;
            return link ? [link, ...size].join(' ') : candidate.trim();
          });
          return ` srcset="${parts.join(', ')}"`;
        });
    });
  return { html: out, linked };
}

/** A stylesheet with its `url(/assets/...)` references made relative to it; the files it needs. */
export function rewriteStylesheet(css: string, file: string): Rewritten {
  const linked: Target[] = [];
  const out = css.replace(/url\((['"]?)(\/[^)'"]+)\1\)/g, (whole, quote: string, address: string) => {
    const target = targetOf(address);
    if (target.kind !== 'file') return whole;
    linked.push(target);
    return `url(${quote}${relativeLink(file, target.file)}${quote})`;
  });
  return { html: out, linked };
}
