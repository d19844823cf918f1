import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { API_BASE, REGIONS } from '@app/shared';
import { WEB_DIST } from '../../locations';
import { formatReceipt } from './receipts';
import { PAGE_TEXT } from './page-text';

/**
 * The witness's pages, rendered here as small standalone HTML (a few KB): they must load on a cheap phone over a slow
 * or censored link and work in the Tor Browser's safest setting, so the form is a plain multipart POST and the one
 * script (/testify.js: proof of work, upload progress) is an improvement, not a need.
 */

export type PageLanguage = 'en' | 'am';
type Text = (typeof PAGE_TEXT)['en'];

export const SCRIPT_PATH = '/testify.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function wantsPage(request: FastifyRequest): boolean {
  return /text\/html/.test(String(request.headers.accept ?? '')) && !/application\/json/.test(String(request.headers.accept ?? ''));
}

/** The whole Noto Sans Ethiopic face the web build ships (apps/web/build/ethiopic-faces.ts), by its hashed name. */
const FULL_FACE = /^noto-sans-ethiopic-ethiopic-400-normal-[\w-]+\.woff2$/;
const ETHIOPIC_RANGE = 'U+030E,U+1200-1399,U+2D80-2DDE,U+AB01-AB2E,U+1E7E0-1E7FE';

/**
 * The @font-face of the web build's Ethiopic face, for these pages' Amharic and what a witness types in it: a phone
 * without Ethiopic fonts showed boxes. A device's own font comes first; the file (75 KB) is fetched only when a page
 * shows an Ethiopic letter (unicode-range). Empty when there is no build (the pages then use the system's fonts).
 * First in the pages' font list, as in the app: after system-ui, Chrome drew bold Ge'ez in its own fallback (boxes).
 */
export function ethiopicFaceRule(distDir: string): string {
  let file: string | undefined;
  try {
    file = readdirSync(path.join(distDir, 'assets')).find((name) => FULL_FACE.test(name));
  } catch {
    return '';
  }
  if (!file) return '';
  return (
    `@font-face{font-family:'Noto Sans Ethiopic';font-style:normal;font-weight:400;font-display:swap;` +
    `src:local('Noto Sans Ethiopic'),local('NotoSansEthiopic-Regular'),url('/assets/${file}') format('woff2');unicode-range:${ETHIOPIC_RANGE}}`
  );
}

const STYLE =
  "body{font:16px/1.5 'Noto Sans Ethiopic',system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fff}main{max-width:40rem;margin:0 auto;padding:1rem}" +
  'h1{font-size:1.5rem}h2{font-size:1.1rem;margin:1.2rem 0 .3rem}label{display:block;font-weight:600;margin-top:1rem}' +
  'input[type=text],input[type=date],select,textarea{box-sizing:border-box;width:100%;font:inherit;padding:.5rem;border:1px solid #555;border-radius:4px}' +
  'textarea{min-height:9rem}.hint{font-weight:400;color:#444;font-size:.9rem}.check{display:flex;gap:.5rem;align-items:flex-start;font-weight:400;margin-top:.5rem}' +
  'button{font:inherit;font-weight:600;margin-top:1.2rem;padding:.7rem 1.2rem;background:#0b4f8a;color:#fff;border:0;border-radius:4px;min-height:44px}' +
  '.receipt{font:700 1.6rem/1.3 monospace;letter-spacing:.05em;background:#f1f1f1;padding:.8rem;border-radius:4px;word-break:break-all}' +
  '.note{background:#fff6d6;border-left:4px solid #a66f00;padding:.6rem .8rem}.err{color:#a40000;font-weight:600}' +
  'progress{width:100%;margin-top:.8rem}code{word-break:break-all}.msg{border-left:3px solid #0b4f8a;padding:.3rem .7rem;margin:.6rem 0}a{color:#0b4f8a}' +
  '.grid{display:grid;gap:0 1rem}@media(min-width:40rem){.grid{grid-template-columns:1fr 1fr 1fr}}';

/** The pages' style with the build's Ethiopic face, looked up once. */
let faceOfBuild: string | undefined;
const styleOfBuild = () => (faceOfBuild ??= ethiopicFaceRule(WEB_DIST)) + STYLE;

function shell(lang: PageLanguage, title: string, body: string, path: string, script = false): string {
  const other = lang === 'am' ? path : `${path}?lang=am`;
  return (
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex"><title>${esc(title)}</title><style>${styleOfBuild()}</style></head>` +
    `<body><main><p><a href="/">←</a> · <a href="${lang === 'am' ? path : other}" hreflang="${lang === 'am' ? 'en' : 'am'}">${PAGE_TEXT[lang].language}</a></p>${body}</main>` +
    (script ? `<script src="${SCRIPT_PATH}" defer></script>` : '') +
    `</body></html>`
  );
}

const field = (id: string, label: string, input: string, hint = '') =>
  `<label for="${id}">${esc(label)}${hint ? ` <span class="hint" id="${id}-hint">${esc(hint)}</span>` : ''}</label>${input}`;

function explanations(t: Text, onion?: string): string {
  return (
    `<h2>${esc(t.keptTitle)}</h2><p>${esc(t.kept)}</p><h2>${esc(t.safeTitle)}</h2><p>${esc(t.safe)}</p>` +
    (onion ? `<p>${esc(t.onion)} <code>http://${esc(onion)}/testify</code></p>` : '') +
    `<h2>${esc(t.nextTitle)}</h2><p>${esc(t.next)}</p>`
  );
}

export function formPage(lang: PageLanguage, options: { accepting: boolean; maxFileMb: number; maxTotalMb: number; onion?: string }): string {
  const t = PAGE_TEXT[lang];
  const action = `${API_BASE}/testimonies${lang === 'am' ? '?lang=am' : ''}`;
  const regions = REGIONS.map((r) => `<option value="${r.code}">${esc(lang === 'am' ? r.am : r.en)}</option>`).join('');
  const consent = (value: string, label: string) =>
    `<label class="check"><input type="checkbox" name="consent" value="${value}"> ${esc(label)}</label>`;
  const form = options.accepting
    ? `<form id="testify" method="post" action="${action}" enctype="multipart/form-data" data-sending="${esc(t.sending)}" data-working="${esc(t.working)}">` +
      `<input type="hidden" name="nojs" value="1">` +
      field('statement', t.statement, `<textarea id="statement" name="statement" required maxlength="50000" aria-describedby="statement-hint"></textarea>`, t.statementHint) +
      field('happenedOn', t.when, `<input type="text" id="happenedOn" name="happenedOn" maxlength="100">`) +
      `<div class="grid">` +
      field('region', t.region, `<select id="region" name="region"><option value="">${esc(t.chooseRegion)}</option>${regions}</select>`) +
      field('zone', t.zone, `<input type="text" id="zone" name="zone" maxlength="100">`) +
      field('woreda', t.woreda, `<input type="text" id="woreda" name="woreda" maxlength="100">`) +
      `</div>` +
      field('place', t.where, `<input type="text" id="place" name="place" maxlength="1000">`) +
      field('people', t.people, `<textarea id="people" name="people" maxlength="10000" rows="3"></textarea>`) +
      field('contact', t.contact, `<input type="text" id="contact" name="contact" maxlength="1000" autocomplete="off">`) +
      field('files', t.files, `<input type="file" id="files" name="files" multiple accept="image/*,video/*,audio/*,application/pdf" aria-describedby="files-hint">`, t.filesHint(options.maxFileMb, options.maxTotalMb)) +
      `<fieldset style="border:0;padding:0;margin-top:1rem"><legend><strong>${esc(t.consentTitle)}</strong></legend>` +
      consent('publish', t.consentPublish) + consent('share', t.consentShare) + consent('contact', t.consentContact) +
      `</fieldset><button type="submit">${esc(t.send)}</button><p id="progress-text" role="status" aria-live="polite"></p></form>`
    : `<p class="note" role="status">${esc(t.closed)}</p>`;
  const receiptLink = `<p>${esc(t.receiptUse)} <a href="/testify/receipt${lang === 'am' ? '?lang=am' : ''}">/testify/receipt</a></p>`;
  return shell(lang, t.title, `<h1>${esc(t.title)}</h1><p>${esc(t.intro)}</p>${explanations(t, options.onion)}${form}${receiptLink}`, '/testify', options.accepting);
}

export function submittedPage(lang: PageLanguage, receipt: string, onion?: string): string {
  const t = PAGE_TEXT[lang];
  return shell(
    lang,
    t.thanksTitle,
    `<h1>${esc(t.thanksTitle)}</h1><p>${esc(t.receiptIs)}</p><p class="receipt" id="receipt">${formatReceipt(receipt)}</p>` +
      `<p>${esc(t.receiptUse)} <a href="/testify/receipt${lang === 'am' ? '?lang=am' : ''}">/testify/receipt</a></p>` +
      `<h2>${esc(t.nextTitle)}</h2><p>${esc(t.next)}</p>` +
      (onion ? `<p>${esc(t.onion)} <code>http://${esc(onion)}/testify</code></p>` : ''),
    '/testify',
  );
}

function receiptForm(t: Text, lang: PageLanguage, receipt: string, opened: boolean): string {
  const action = `${API_BASE}/testimonies/receipt${lang === 'am' ? '?lang=am' : ''}`;
  return (
    `<form method="post" action="${action}" enctype="multipart/form-data">` +
    field('receipt', t.receipt, `<input type="text" id="receipt" name="receipt" inputmode="numeric" autocomplete="off" required value="${esc(receipt)}">`) +
    (opened
      ? field('reply', t.reply, `<textarea id="reply" name="reply" maxlength="20000" rows="4"></textarea>`) +
        field('files', t.addFiles, `<input type="file" id="files" name="files" multiple accept="image/*,video/*,audio/*,application/pdf">`) +
        `<button type="submit">${esc(t.sendReply)}</button>`
      : `<button type="submit">${esc(t.open)}</button>`) +
    `</form>`
  );
}

export function receiptEntryPage(lang: PageLanguage): string {
  const t = PAGE_TEXT[lang];
  return shell(lang, t.receiptTitle, `<h1>${esc(t.receiptTitle)}</h1>${receiptForm(t, lang, '', false)}`, '/testify/receipt');
}

export function receiptPage(
  lang: PageLanguage,
  view: { status: string; messages: { author: string; text: string; createdAt: string }[] },
  receipt: string,
  _onion?: string,
): string {
  const t = PAGE_TEXT[lang];
  const messages = view.messages.length
    ? view.messages
        .map((m) => `<div class="msg"><strong>${esc(m.author === 'reviewer' ? t.fromReviewer : t.fromYou)}</strong> <span class="hint">${esc(m.createdAt.slice(0, 10))}</span>${m.text ? `<p>${esc(m.text)}</p>` : ''}</div>`)
        .join('')
    : `<p>${esc(t.noMessages)}</p>`;
  return shell(
    lang,
    t.receiptTitle,
    `<h1>${esc(t.receiptTitle)}</h1><p><strong>${esc(t.status)}:</strong> <span id="status">${esc(t.statuses[view.status] ?? view.status)}</span></p>` +
      `<h2>${esc(t.messages)}</h2>${messages}${receiptForm(t, lang, receipt, true)}`,
    '/testify/receipt',
  );
}

export function errorPage(lang: PageLanguage, errors: Record<string, string>, url: string): string {
  const t = PAGE_TEXT[lang];
  const list = Object.entries(errors)
    .filter(([name]) => name !== 'message' || Object.keys(errors).length === 1)
    .map(([, message]) => `<li>${esc(message)}</li>`)
    .join('');
  const back = url.includes('/receipt') ? '/testify/receipt' : '/testify';
  return shell(lang, t.errorTitle, `<h1>${esc(t.errorTitle)}</h1><ul class="err" role="alert">${list}</ul><p><a href="${back}${lang === 'am' ? '?lang=am' : ''}">${esc(t.back)}</a></p>`, back);
}
