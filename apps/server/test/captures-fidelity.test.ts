import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';
import { gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { WARCParser } from 'warcio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, CATEGORIES, type LinkCaptureDto } from '@app/shared';
import { jobs, linkCaptures } from '../src/db/schema';
import { browserAvailable } from '../src/modules/captures/browser';
import { readZip } from '../src/modules/captures/verify-wacz';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { sampleFields } from './records-helpers';

/**
 * That a capture holds what the page showed and what the browser sent: a page that replaces itself after it loaded is
 * recorded as the document captured (both loads in the WARC, the first one named); one that moves to a refused
 * address fails instead of archiving the browser's error page; the WARC's request records carry the headers as sent
 * (the site's own record of them to compare); and Ge'ez letters are drawn, not boxes, whatever fonts the host has.
 * Pages served on loopback, test content only.
 */

const browserPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveBrowser = browserAvailable(browserPath);
const mhtmlText = (b: Buffer) => b.toString().replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

interface WarcEntry {
  type: string;
  url: string;
  status: number | null;
  headers: Map<string, string>;
  text: string;
}

async function warcEntries(warc: Buffer): Promise<WarcEntry[]> {
  const entries: WarcEntry[] = [];
  for await (const record of new WARCParser([new Uint8Array(warc)])) {
    const headers = new Map<string, string>();
    for (const [name, value] of record.httpHeaders?.headers ?? []) headers.set(name.toLowerCase(), value);
    const body = Buffer.from(await record.readFully(false)).toString();
    entries.push({ type: record.warcType!, url: record.warcTargetURI ?? '', status: record.httpHeaders?.statusCode ? Number(record.httpHeaders.statusCode) : null, headers, text: body });
  }
  return entries;
}

describe.skipIf(!haveBrowser)(`what a capture holds${haveBrowser ? '' : ` (skipped: no browser at ${browserPath})`}`, () => {
  let t: TestApp;
  let site: http.Server;
  let forbidden: http.Server;
  let base = '';
  let forbiddenBase = '';
  let forbiddenHits = 0;
  const received = new Map<string, http.IncomingHttpHeaders>();
  let editor: Awaited<ReturnType<typeof createUser>>;
  const css = gzipSync(Buffer.from('body { background: #f4f4f4 } h1 { color: #123456 }'));

  const page = (title: string, body: string, script = '') =>
    `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${script}</head><body>${body}</body></html>`;
  const listen = async (server: http.Server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    site = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://site.test');
      received.set(url.pathname, req.headers);
      const html = (status: number, text: string) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(text);
      const moveAfterLoad = (to: string) => `<script>addEventListener('load', () => setTimeout(() => location.replace(${JSON.stringify(to)}), 200))</script>`;
      if (url.pathname === '/replaces') return html(200, page('Cited page', '<h1>Test content: the page that was cited</h1>', moveAfterLoad('/other')));
      if (url.pathname === '/other') return html(410, page('Other page', '<h1>Test content: another page the cited one moved to</h1>'));
      if (url.pathname === '/to-refused') return html(200, page('Moves away', '<h1>Test content: a page that moves to a private address</h1>', moveAfterLoad(`${forbiddenBase}/secret`)));
      if (url.pathname === '/styled') return html(200, page('Styled page', '<h1>Test content: a page with a gzipped style sheet</h1>', '<link rel="stylesheet" href="/style.css">'));
      if (url.pathname === '/style.css') return res.writeHead(200, { 'content-type': 'text/css', 'content-encoding': 'gzip', 'content-length': css.length }).end(css);
      if (url.pathname === '/letters') {
        // Letters given as code points, so the record's URL stays plain: Ge'ez, or private-use ones no font draws.
        const letters = String.fromCodePoint(...(url.searchParams.get('cp') ?? '').split(',').map((h) => parseInt(h, 16)));
        return html(200, page('Letters', `<p style="font: 64px serif; margin: 40px">${letters}</p>`));
      }
      return html(404, page('Missing', '<p>Test content: no such page</p>'));
    });
    forbidden = http.createServer((_req, res) => {
      forbiddenHits++;
      res.end('test content: a private server that captures must not reach');
    });
    base = await listen(site);
    forbiddenBase = await listen(forbidden);
    t = await createTestApp({ CAPTURE_ALLOW_HOSTS: new URL(base).host, CAPTURE_BROWSER_PATH: browserPath, CAPTURE_TIMEOUT_SECONDS: '20' });
    editor = await createUser(t.app, 'contributor');
  });

  afterAll(async () => {
    await t?.close();
    site?.close();
    forbidden?.close();
  });

  const stored = async (key: string) => buffer(await t.app.media.storage.get(key));
  /** Captures `url` (runs its job and every retry) and returns its row and what the API shows the record's editor. */
  const capture = async (url: string) => {
    const res = await call(t.app, { method: 'POST', url: `${API_BASE}/links`, headers: editor.auth, payload: { ...sampleFields(CATEGORIES.links, 'Capture fidelity test'), linkURL: url } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    for (;;) {
      await t.app.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.state, 'queued'));
      if (!(await t.app.jobs.drain())) break;
    }
    const listed = (await call(t.app, { method: 'GET', url: `${API_BASE}/links/${res.body._id}/captures`, headers: editor.auth })).body.captures as LinkCaptureDto[];
    const [row] = await t.app.db.select().from(linkCaptures).where(eq(linkCaptures.id, listed[0]!.id));
    return { dto: listed[0]!, row: row! };
  };

  it('records the document the page shows when captured, says that the page replaced itself, and keeps both loads in the WARC', async () => {
    const { dto, row } = await capture(`${base}/replaces`);
    expect(dto).toMatchObject({ status: 'done', url: `${base}/replaces`, finalUrl: `${base}/other`, httpStatus: 410, pageTitle: 'Other page' });
    expect(dto.firstLoad).toEqual({ url: `${base}/replaces`, status: 200 });
    // The snapshot is of the document recorded, and so says the headers file.
    expect(mhtmlText(await stored(row.snapshotKey!))).toContain('another page the cited one moved to');
    const headers = JSON.parse((await stored(row.headersKey!)).toString());
    expect(headers).toMatchObject({ finalUrl: `${base}/other`, status: 410, addressShown: `${base}/other` });
    expect(headers.documents).toEqual([{ url: `${base}/replaces`, status: 200 }, { url: `${base}/other`, status: 410 }]);
    const entries = await warcEntries((await readZip(await stored(row.waczKey!))).get('archive/capture.warc.gz')!);
    const responses = entries.filter((e) => e.type === 'response').map((e) => `${e.status} ${e.url}`);
    expect(responses).toEqual(expect.arrayContaining([`200 ${base}/replaces`, `410 ${base}/other`]));
    expect(entries.find((e) => e.type === 'warcinfo')!.text).toMatch(new RegExp(`first-loaded-url: ${base}/replaces \\(200\\), replaced by the page itself`));
    const metadata = JSON.parse(entries.find((e) => e.type === 'metadata')!.text);
    expect(metadata).toMatchObject({ finalUrl: `${base}/other`, httpStatus: 410, firstLoad: { url: `${base}/replaces`, status: 200 } });
  });

  it('fails a capture whose page moved itself to a refused address, rather than archiving the error page', async () => {
    const { dto, row } = await capture(`${base}/to-refused`);
    expect(dto.status).toBe('failed');
    expect(dto.reason).toMatch(/^refused: the page moved itself to an address that is refused: .*not a public internet address/);
    expect(row.screenshotKey).toBeNull();
    expect(forbiddenHits).toBe(0);
  });

  it('keeps in each WARC request record the headers the browser sent, as the site received them (Accept-Encoding of a gzipped style sheet)', async () => {
    const { dto, row } = await capture(`${base}/styled`);
    expect(dto.status).toBe('done');
    const entries = await warcEntries((await readZip(await stored(row.waczKey!))).get('archive/capture.warc.gz')!);
    const response = entries.find((e) => e.type === 'response' && e.url === `${base}/style.css`)!;
    expect(response.headers.get('x-archive-orig-content-encoding')).toBe('gzip');
    for (const path of ['/styled', '/style.css']) {
      const request = entries.find((e) => e.type === 'request' && e.url === `${base}${path}`)!;
      const sent = received.get(path)!;
      expect(sent['accept-encoding']).toMatch(/gzip/);
      for (const name of ['host', 'accept', 'accept-encoding', 'accept-language', 'user-agent', 'sec-fetch-dest', 'sec-fetch-mode', 'sec-fetch-site']) {
        expect(request.headers.get(name), `${path}: ${name}`).toBe(sent[name]);
      }
    }
    expect(entries.find((e) => e.type === 'request' && e.url === `${base}/style.css`)!.headers.get('referer')).toBe(`${base}/styled`);
  });

  it("draws Ge'ez letters with the site's Noto Sans Ethiopic, whatever fonts the host has: two words differ on the screenshot, where boxes would not", async () => {
    const pixels = async (codePoints: string) => {
      const { dto, row } = await capture(`${base}/letters?cp=${codePoints}`);
      expect(dto.status).toBe('done');
      const png = await stored(row.screenshotKey!);
      return { raw: await sharp(png).removeAlpha().raw().toBuffer(), waczKey: row.waczKey! };
    };
    // ሰላም and ዓለም: three letters each. Letters no font has (private use) are drawn as boxes all alike: the control.
    const salam = await pixels('1230,120B,121D');
    const alem = await pixels('12D3,1208,121D');
    const boxes = await pixels('E000,E001,E002');
    const otherBoxes = await pixels('E010,E011,E012');
    expect(boxes.raw.equals(otherBoxes.raw)).toBe(true);
    expect(salam.raw.equals(boxes.raw)).toBe(false);
    expect(alem.raw.equals(boxes.raw)).toBe(false);
    expect(salam.raw.equals(alem.raw)).toBe(false);
    const info = (await warcEntries((await readZip(await stored(salam.waczKey))).get('archive/capture.warc.gz')!)).find((e) => e.type === 'warcinfo')!;
    expect(info.text).toMatch(/fonts-added: Noto Sans Ethiopic/);
  });
});
