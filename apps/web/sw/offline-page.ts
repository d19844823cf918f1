import { browse as enBrowse, offline as enOffline } from '../src/locales/en.json';
import { browse as amBrowse, offline as amOffline } from '../src/locales/am.json';
import { listOf } from './rules';

/**
 * What the service worker writes itself: the "saved on" mark on a page opened from its copy, and the offline page
 * that lists what this device keeps, grouped by list. Words from the web app's locale files, in the page's language.
 */

// Named imports: the bundle carries these two parts of each locale file, not the whole app's words.
const en = { browse: enBrowse, offline: enOffline };
type Words = typeof en;
const LANGUAGES: Record<string, Words> = { en, am: { browse: amBrowse, offline: amOffline } };
const BROWSE_KEY: Record<string, keyof Words['browse']> = {
  '/massacres': 'massacres',
  '/victims': 'victims',
  '/displacements': 'displacements',
  '/missings': 'missings',
  '/orphans': 'orphans',
  '/events': 'events',
  '/videos': 'videos',
  '/links': 'links',
  '/educations': 'blogs',
};

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => String(values[key] ?? ''));

export function wordsFor(lang: string): Words {
  return LANGUAGES[lang] ?? en;
}

function dateIn(lang: string, savedAt: string): string {
  try {
    return new Intl.DateTimeFormat(lang === 'am' ? 'am-ET' : 'en-GB', { dateStyle: 'long', timeStyle: 'short' }).format(new Date(savedAt));
  } catch {
    return savedAt;
  }
}

/** The page kept on the device with a line saying when it was saved, first in its main content. */
export function markSaved(html: string, savedAt: string): string {
  const lang = /<html[^>]*\slang="([a-z]{2})"/.exec(html)?.[1] ?? 'en';
  const mark = `<p class="offline-saved" role="status" data-testid="offline-saved" style="margin:0 0 1rem;padding:.5rem .75rem;border-left:4px solid #7a1f1f;background:#f4f1ec">${escape(
    fill(wordsFor(lang).offline.savedOn, { date: dateIn(lang, savedAt) }),
  )}</p>`;
  return /<main\b[^>]*>/.test(html) ? html.replace(/<main\b[^>]*>/, (open) => `${open}${mark}`) : html.replace(/<body[^>]*>/, (open) => `${open}${mark}`);
}

export interface SavedPage {
  path: string;
  title: string;
  savedAt: string;
}

/** The offline page: what is saved, by list, each a link that opens its copy. */
export function offlinePage(saved: SavedPage[], lang: string, stylesheets: string[]): string {
  const words = wordsFor(lang);
  const groups = new Map<string, SavedPage[]>();
  for (const page of saved) {
    const list = listOf(page.path);
    const name = list && BROWSE_KEY[list] ? words.browse[BROWSE_KEY[list]!] : words.offline.otherPages;
    groups.set(name, [...(groups.get(name) ?? []), page]);
  }
  const sections = [...groups]
    .map(
      ([name, pages]) =>
        `<section><h2>${escape(name)}</h2><ul>${pages
          .map((p) => `<li><a href="${escape(p.path)}">${escape(p.title || p.path)}</a> <small>${escape(dateIn(lang, p.savedAt))}</small></li>`)
          .join('')}</ul></section>`,
    )
    .join('');
  const styles = stylesheets.map((href) => `<link rel="stylesheet" href="${escape(href)}">`).join('');
  return `<!doctype html><html lang="${lang === 'am' ? 'am' : 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(
    words.offline.title,
  )}</title>${styles}</head><body><main id="main" class="offline-page" data-testid="offline-page" style="max-width:60rem;margin:0 auto;padding:1rem"><h1 class="page-title">${escape(
    words.offline.title,
  )}</h1><p>${escape(saved.length ? words.offline.intro : words.offline.none)}</p>${sections}</main></body></html>`;
}
