import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { escapeHtml } from '@app/shared';
import { SEARCH_OPTIONS } from './search-index';

/**
 * The mirror's search page: the site's layout (taken from a rendered page) around a form and a list of hits that a
 * small script fills from the prebuilt index (search/index.js, a plain script, not a fetch: a page opened from
 * file:// may not fetch files beside it). The words are in English and Amharic, picked by the page's language.
 */

export const SEARCH_SCRIPT_FILE = 'mirror/search.js';
export const MINISEARCH_FILE = 'mirror/minisearch.js';
export const INDEX_FILE = 'search/index.js';

const WORDS = {
  en: {
    title: 'Search records',
    label: 'Words or names',
    button: 'Search',
    found: '{n} records found',
    none: 'Nothing found for “{q}”',
    noScript: 'Searching this copy needs JavaScript. Every record can also be reached from the lists.',
  },
  am: {
    title: 'መዝገቦችን ይፈልጉ',
    label: 'ቃላት ወይም ስሞች',
    button: 'ፈልግ',
    found: '{n} መዝገቦች ተገኝተዋል',
    none: 'ለ“{q}” ምንም አልተገኘም',
    noScript: 'በዚህ ቅጂ ለመፈለግ ጃቫስክሪፕት ያስፈልጋል። እያንዳንዱ መዝገብ ከዝርዝሮቹም ይገኛል።',
  },
};

/** The script of the search page: reads ?q=, searches the index (prefix and one letter wrong), lists the hits. */
const SEARCH_SCRIPT = `(function () {
  var words = ${JSON.stringify(WORDS)};
  var lang = document.documentElement.lang === 'am' ? 'am' : 'en';
  var t = words[lang];
  var q = new URLSearchParams(location.search).get('q') || '';
  var input = document.getElementById('search-q');
  input.value = q;
  if (!q.trim()) return;
  var data = window.MIRROR_SEARCH;
  var index = MiniSearch.loadJSON(data.index, data.options);
  var hits = index.search(q, { prefix: true, fuzzy: 0.2, combineWith: 'AND' });
  var status = document.getElementById('mirror-search-status');
  status.textContent = hits.length ? t.found.replace('{n}', hits.length) : t.none.replace('{q}', q);
  var list = document.getElementById('mirror-search-results');
  hits.slice(0, 200).forEach(function (hit) {
    var item = document.createElement('li');
    var link = document.createElement('a');
    link.href = '../' + hit.file;
    link.textContent = hit.title;
    var kind = document.createElement('span');
    kind.className = 'mirror-hit-category';
    kind.textContent = ' · ' + hit.category;
    item.appendChild(link);
    item.appendChild(kind);
    list.appendChild(item);
  });
})();
`;

export function searchScript(): string {
  return SEARCH_SCRIPT;
}

/** MiniSearch's browser build (UMD: a plain script that defines window.MiniSearch). */
export function miniSearchBrowserBuild(): Buffer {
  const require = createRequire(import.meta.url);
  const main = require.resolve('minisearch');
  return readFileSync(main.replace(/dist[/\\]cjs[/\\]index\.cjs$/, 'dist/umd/index.js'));
}

export function indexScript(json: string): string {
  return `window.MIRROR_SEARCH = ${JSON.stringify({ options: SEARCH_OPTIONS })};\nwindow.MIRROR_SEARCH.index = ${JSON.stringify(json)};\n`;
}

/** The page: `layout` is a rendered page of the mirror (search/index.html's links already relative to it). */
export function searchPage(layout: string): string {
  const lang = /<html[^>]*\slang="am"/.test(layout) ? 'am' : 'en';
  const t = WORDS[lang];
  const main = [
    '<section class="search-page">',
    `<h1 class="page-title">${escapeHtml(t.title)}</h1>`,
    `<form role="search" method="get" action="index.html" aria-label="${escapeHtml(t.title)}" class="search-form"><div class="search-words">`,
    `<label for="search-q">${escapeHtml(t.label)}</label><input id="search-q" type="search" name="q" maxlength="200">`,
    `<button type="submit" class="btn">${escapeHtml(t.button)}</button></div></form>`,
    '<p id="mirror-search-status" role="status"></p><ol id="mirror-search-results" class="mirror-search-results"></ol>',
    `<noscript><p>${escapeHtml(t.noScript)}</p></noscript>`,
    '</section>',
  ].join('');
  const scripts = `<script src="../${MINISEARCH_FILE}"></script><script src="index.js"></script><script src="../${SEARCH_SCRIPT_FILE}"></script>`;
  return layout
    .replace(/(<main\b[^>]*>)[\s\S]*<\/main>/, (_whole, open: string) => `${open}${main}</main>`)
    .replace(/<title>[^<]*<\/title>/, (title) => title.replace(/>[^<]*</, `>${escapeHtml(t.title)}<`))
    .replace('</body>', `${scripts}</body>`);
}
