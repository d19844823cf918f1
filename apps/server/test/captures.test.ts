import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';
import { and, eq, sql } from 'drizzle-orm';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { WARCParser } from 'warcio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, CATEGORIES, CHROMIUM_FLAGS, type RecordCapturesDto } from '@app/shared';
import { auditLog, jobs, linkCaptures } from '../src/db/schema';
import { AddressPolicy, CaptureRefused, isPublicAddress } from '../src/modules/captures/address-policy';
import { browserAvailable } from '../src/modules/captures/browser';
import { GuardedProxy, REFUSED_HEADER } from '../src/modules/captures/guarded-proxy';
import { CAPTURE_JOB, citedUrls } from '../src/modules/captures/service';
import { readZip } from '../src/modules/captures/verify-wacz';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { sampleFields } from './records-helpers';

/**
 * Captures of cited links, against pages this test serves on loopback (admitted through CAPTURE_ALLOW_HOSTS) and a
 * second loopback server that is not admitted, which must never be reached. All pages are test content.
 */

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** An MHTML file's text parts are quoted-printable: soft line breaks and =XX escapes. */
const mhtmlText = (b: Buffer) => b.toString().replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
const browserPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveBrowser = browserAvailable(browserPath);

describe('the address rule', () => {
  it.each([
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.20.0.1', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fd00::1', false],
    ['ff02::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['[::ffff:10.0.0.1]', false],
    ['64:ff9b::a00:1', false],
    ['2002:7f00:1::', false],
    ['::ffff:0:127.0.0.1', false],
    ['::ffff:0:7f00:1', false],
    ['::ffff:0:93.184.215.14', false],
    ['64:ff9b:1::a00:1', false],
    ['64:ff9b:1:ffff::5db8:d70e', false],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false],
    ['2001::1', false],
    ['2001:4860:4860::8888', true],
    ['93.184.215.14', true],
    ['2606:4700::1111', true],
    ['::ffff:93.184.215.14', true],
    ['not-an-address', false],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('refuses other schemes, private answers of DNS, and admits the allow list', async () => {
    const policy = new AddressPolicy(['allowed.test:8080'], async (host) =>
      host === 'mixed.test' ? [{ address: '93.184.215.14', family: 4 }, { address: '10.0.0.1', family: 4 }] : [{ address: '10.0.0.2', family: 4 }],
    );
    await expect(policy.checkUrl('file:///etc/passwd')).rejects.toThrow(/only http and https/);
    await expect(policy.checkUrl('data:text/html,test')).rejects.toThrow(/only http and https/);
    await expect(policy.checkUrl('ftp://example.test/')).rejects.toThrow(CaptureRefused);
    await expect(policy.checkUrl('http://mixed.test/')).rejects.toThrow(/10\.0\.0\.1, which is not a public/);
    await expect(policy.checkUrl('http://[::ffff:127.0.0.1]/')).rejects.toThrow(/not a public/);
    await expect(policy.checkUrl('http://allowed.test:9090/')).rejects.toThrow(/not a public/);
    expect(await policy.checkUrl('http://allowed.test:8080/page')).toEqual({ address: '10.0.0.2', family: 4 });
  });

  it('takes a name that does not resolve for a failure to try again, not a refusal', async () => {
    const policy = new AddressPolicy([], async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND gone.test'), { code: 'ENOTFOUND' });
    });
    const err = await policy.checkUrl('https://gone.test/').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(CaptureRefused);
    // In words for the editors who read it, the system's code kept at the end (issue 52 item 20).
    expect((err as Error).message).toBe('the address of gone.test could not be looked up: no site by that name exists; the address may be mistyped or the site gone (ENOTFOUND)');
    await expect(new AddressPolicy([], async () => []).checkUrl('https://empty.test/')).rejects.not.toBeInstanceOf(CaptureRefused);
  });

  it('finds the URLs a record cites, once each', () => {
    expect(citedUrls({ linkURL: 'https://a.test/x', evidence: 'https://b.test/1, https://a.test/x, https://c.test/2' })).toEqual([
      { field: 'linkURL', url: 'https://a.test/x' },
      { field: 'evidence', url: 'https://b.test/1' },
      { field: 'evidence', url: 'https://c.test/2' },
    ]);
  });

  it("finds the URLs of a record's sources, but not a withheld testimony's", () => {
    const sources = [
      { kind: 'media' as const, title: 'Test report', url: 'https://d.test/report' },
      { kind: 'witness' as const, title: 'Test witness', url: 'https://e.test/witness', withheld: true as const },
      { kind: 'ngo' as const, title: 'Test NGO report without link' },
      { kind: 'other' as const, title: 'Cited twice', url: 'https://b.test/1' },
    ];
    expect(citedUrls({ evidence: 'https://b.test/1', sources })).toEqual([
      { field: 'evidence', url: 'https://b.test/1' },
      { field: 'sources', url: 'https://d.test/report' },
    ]);
  });
});

describe('the proxy every capture connection goes through', () => {
  let allowed: http.Server;
  let other: http.Server;
  let allowedHost = '';
  let otherHost = '';
  let otherHits = 0;
  const big = Buffer.alloc(1024 * 1024, 'x');

  beforeAll(async () => {
    allowed = http.createServer((req, res) => res.end(req.url === '/big' ? big : 'test content'));
    other = http.createServer((_req, res) => {
      otherHits++;
      res.end('test content: must not be reached');
    });
    for (const server of [allowed, other]) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    allowedHost = `127.0.0.1:${(allowed.address() as AddressInfo).port}`;
    otherHost = `127.0.0.1:${(other.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    allowed.close();
    other.close();
  });

  /** A plain-HTTP request as a browser sends it to a proxy: the absolute URL as the path. */
  const viaProxy = (proxyUrl: string, target: string) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const proxy = new URL(proxyUrl);
      http
        .get({ host: proxy.hostname, port: proxy.port, path: target, headers: { host: new URL(target).host } }, async (res) => {
          try {
            resolve({ status: res.statusCode!, headers: res.headers, body: await buffer(res) });
          } catch (err) {
            reject(err instanceof Error ? err : new Error(String(err)));
          }
        })
        .on('error', reject);
    });
  const tunnel = (proxyUrl: string, target: string) =>
    new Promise<number>((resolve, reject) => {
      const proxy = new URL(proxyUrl);
      http
        .request({ host: proxy.hostname, port: proxy.port, method: 'CONNECT', path: target })
        .on('connect', (res, socket) => {
          socket.destroy();
          resolve(res.statusCode!);
        })
        .on('error', reject)
        .end();
    });

  it('forwards to admitted hosts, refuses the others before connecting, for plain requests and tunnels', async () => {
    const proxy = new GuardedProxy(new AddressPolicy([allowedHost]), 10 * 1024 * 1024);
    const url = await proxy.listen();
    try {
      const ok = await viaProxy(url, `http://${allowedHost}/page`);
      expect([ok.status, ok.body.toString()]).toEqual([200, 'test content']);
      const refused = await viaProxy(url, `http://${otherHost}/secret`);
      expect(refused.status).toBe(403);
      expect(decodeURIComponent(String(refused.headers[REFUSED_HEADER]))).toMatch(/not a public internet address/);
      expect(await tunnel(url, otherHost)).toBe(403);
      expect(await tunnel(url, allowedHost)).toBe(200);
      expect(otherHits).toBe(0);
      expect(proxy.refused.map((r) => r.url)).toEqual([`http://${otherHost}/secret`, `https://${otherHost}`]);
    } finally {
      await proxy.close();
    }
  });

  it('stops a page over the size limit', async () => {
    const proxy = new GuardedProxy(new AddressPolicy([allowedHost]), 100 * 1024);
    const url = await proxy.listen();
    try {
      await viaProxy(url, `http://${allowedHost}/big`).catch(() => undefined);
      expect(proxy.overLimit).toBe(true);
      expect(proxy.refused.at(-1)!.reason).toMatch(/larger than the limit/);
      expect((await viaProxy(url, `http://${allowedHost}/page`)).status).toBe(403);
    } finally {
      await proxy.close();
    }
  });
});

describe.skipIf(!haveBrowser)(`captures in headless Chromium${haveBrowser ? '' : ` (skipped: no browser at ${browserPath})`}`, () => {
  let t: TestApp;
  let site: http.Server;
  let forbidden: http.Server;
  let base = '';
  let forbiddenBase = '';
  let forbiddenHits = 0;
  let flakyHits = 0;
  let editor: Awaited<ReturnType<typeof createUser>>;
  let other: Awaited<ReturnType<typeof createUser>>;
  let admin: Awaited<ReturnType<typeof createUser>>;

  const listen = async (server: http.Server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  let twentySnapshot: Buffer | null = null;
  let twentyWacz: Buffer | null = null;
  const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

  beforeAll(async () => {
    const images = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        sharp({ create: { width: 120, height: 90, channels: 3, background: { r: i * 12, g: 90, b: 160 } } }).png().toBuffer(),
      ),
    );
    site = http.createServer((req, res) => {
      const url = req.url ?? '/';
      const html = (status: number, text: string) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'x-test-server': 'captures' }).end(text);
      if (url === '/twenty') {
        const imgs = images.map((_, i) => `<img src="/img/${i}.png" alt="test image ${i}">`).join('');
        return html(200, page('Twenty images', `<h1>Test content: a page of twenty images</h1>${imgs}`));
      }
      const img = /^\/img\/(\d+)\.png$/.exec(url);
      if (img) return res.writeHead(200, { 'content-type': 'image/png' }).end(images[Number(img[1])]);
      if (url === '/redirect') return res.writeHead(302, { location: '/final' }).end();
      if (url === '/final') {
        // A sub-resource on the host that is not admitted: refused, the page is still captured.
        return html(200, page('Final', `<p>Test content: the final page after a redirect</p><img src="${forbiddenBase}/pixel.png">`));
      }
      if (url === '/to-forbidden') return res.writeHead(302, { location: `${forbiddenBase}/secret` }).end();
      if (url === '/flaky') {
        flakyHits++;
        return req.socket.destroy();
      }
      return html(404, page('Missing', '<p>Test content: no such page</p>'));
    });
    forbidden = http.createServer((_req, res) => {
      forbiddenHits++;
      res.end('test content: a private server that captures must not reach');
    });
    base = await listen(site);
    forbiddenBase = await listen(forbidden);
    t = await createTestApp({
      CAPTURE_ALLOW_HOSTS: new URL(base).host,
      CAPTURE_BROWSER_PATH: browserPath,
      CAPTURE_TIMEOUT_SECONDS: '20',
    });
    [editor, other, admin] = await Promise.all([createUser(t.app, 'contributor'), createUser(t.app, 'contributor'), createUser(t.app, 'admin')]);
  });

  afterAll(async () => {
    await t?.close();
    site?.close();
    forbidden?.close();
  });

  const createLink = async (linkURL: string) => {
    const res = await call(t.app, {
      method: 'POST',
      url: `${API_BASE}/links`,
      headers: editor.auth,
      payload: { ...sampleFields(CATEGORIES.links, 'Capture test'), linkURL },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body._id as string;
  };
  const capturesOf = async (category: string, id: string, headers: Record<string, string> = {}) => {
    const res = await call(t.app, { method: 'GET', url: `${API_BASE}/${category}/${id}/captures`, headers });
    return { status: res.status, body: res.body as RecordCapturesDto };
  };
  const stored = async (key: string) => buffer(await t.app.media.storage.get(key));
  /** Runs queued jobs, including retries whose back-off has not passed. */
  const drainAll = async () => {
    let ran = 0;
    for (;;) {
      await t.app.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.state, 'queued'));
      const n = await t.app.jobs.drain();
      if (!n) return ran;
      ran += n;
    }
  };

  it('follows a redirect and records the final URL; records a 404 page with its status', async () => {
    const res = await call(t.app, {
      method: 'POST',
      url: `${API_BASE}/massacres`,
      headers: editor.auth,
      payload: { ...sampleFields(CATEGORIES.massacres, 'Capture test'), evidence: `${base}/redirect, ${base}/missing` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body._id as string;
    expect(await t.app.jobs.drain()).toBe(2);
    const { body } = await capturesOf('massacres', id);
    const byUrl = new Map(body.captures.map((c) => [c.url, c]));
    expect(byUrl.get(`${base}/redirect`)).toMatchObject({ status: 'done', finalUrl: `${base}/final`, httpStatus: 200 });
    expect(byUrl.get(`${base}/missing`)).toMatchObject({ status: 'done', finalUrl: `${base}/missing`, httpStatus: 404 });
    // The final page's image on the host that is not admitted was refused, and named in the headers file.
    expect(forbiddenHits).toBe(0);
    const [row] = await t.app.db.select().from(linkCaptures).where(eq(linkCaptures.id, byUrl.get(`${base}/redirect`)!.id));
    const log = JSON.parse((await stored(row!.headersKey!)).toString());
    expect(log.hops.map((h: { status: number }) => h.status)).toEqual([302, 200]);
    expect(log.refused[0].url).toBe(`${forbiddenBase}/pixel.png`);
    // The web archive holds both hops, request and response, and nothing of the refused host.
    const warc = (await readZip(await stored(row!.waczKey!))).get('archive/capture.warc.gz')!;
    const exchanges: string[] = [];
    for await (const record of new WARCParser([new Uint8Array(warc)])) {
      if (record.warcType === 'response') exchanges.push(`${record.httpHeaders!.statusCode} ${record.warcTargetURI}`);
    }
    expect(exchanges.slice(0, 2)).toEqual([`302 ${base}/redirect`, `200 ${base}/final`]);
    expect(exchanges.some((e) => e.includes(forbiddenBase))).toBe(false);

    // Private, then trashed: not listed to anonymous readers, still listed to signed-in ones until trashed.
    expect((await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${id}/access`, headers: admin.auth })).status).toBe(200);
    expect((await capturesOf('massacres', id)).status).toBe(404);
    expect((await call(t.app, { method: 'GET', url: byUrl.get(`${base}/redirect`)!.screenshot!.url! })).status).toBe(404);
    const signedIn = await capturesOf('massacres', id, other.auth);
    expect(signedIn.status).toBe(200);
    // A private record's screenshot is given to a signed-in reader by a signed URL the browser can open.
    const signedUrl = signedIn.body.captures[0]!.screenshot!.url!;
    expect(signedUrl).toMatch(/\?v=/);
    expect((await call(t.app, { method: 'GET', url: signedUrl })).status).toBe(200);
    expect((await call(t.app, { method: 'DELETE', url: `${API_BASE}/massacres/${id}/delete`, headers: editor.auth })).status).toBe(200);
    expect((await capturesOf('massacres', id)).status).toBe(404);
    expect((await capturesOf('massacres', id, other.auth)).status).toBe(404);
  });

  it('captures a page of twenty images: snapshot, screenshot and headers, with hashes that match the stored bytes', async () => {
    const id = await createLink(`${base}/twenty`);
    const started = Date.now();
    expect(await t.app.jobs.drain()).toBe(1);
    const seconds = (Date.now() - started) / 1000;
    const memory = process.memoryUsage();
    console.log(
      `capture of the 20-image page: ${seconds.toFixed(2)} s (browser already started by the test before); ` +
        `server process rss ${(memory.rss / 1048576).toFixed(0)} MB, heap ${(memory.heapUsed / 1048576).toFixed(0)} MB`,
    );

    const { status, body } = await capturesOf('links', id);
    expect(status).toBe(200);
    expect(body.captures).toHaveLength(1);
    const capture = body.captures[0]!;
    expect(capture).toMatchObject({ status: 'done', url: `${base}/twenty`, finalUrl: `${base}/twenty`, httpStatus: 200, pageTitle: 'Twenty images' });
    // Anonymous readers see the screenshot, not the snapshot.
    expect(capture.screenshot!.url).toBe(`${API_BASE}/captures/${capture.id}/screenshot.png`);
    expect(capture.snapshot!.url).toBeNull();

    const [row] = await t.app.db.select().from(linkCaptures).where(eq(linkCaptures.id, capture.id));
    const snapshot = await stored(row!.snapshotKey!);
    const screenshot = await stored(row!.screenshotKey!);
    const headers = await stored(row!.headersKey!);
    expect(sha256(snapshot)).toBe(row!.snapshotSha256);
    expect(snapshot.length).toBe(row!.snapshotSize);
    expect(sha256(screenshot)).toBe(row!.screenshotSha256);
    expect(sha256(headers)).toBe(row!.headersSha256);
    expect(row!.snapshotKey).toMatch(/^originals\/captures\//);
    const waczFile = await stored(row!.waczKey!);
    expect([sha256(waczFile), waczFile.length]).toEqual([row!.waczSha256, row!.waczSize]);
    expect(capture.wacz).toMatchObject({ sha256: row!.waczSha256, size: row!.waczSize, url: null });
    expect(mhtmlText(snapshot)).toContain('Test content: a page of twenty images');
    twentySnapshot = snapshot;
    // Every image is in the single-file snapshot.
    expect(snapshot.toString().match(/Content-Location: http:\/\/127\.0\.0\.1:\d+\/img\/\d+\.png/g)?.length).toBe(20);
    expect(screenshot.subarray(1, 4).toString()).toBe('PNG');
    const headerLog = JSON.parse(headers.toString());
    expect(headerLog.hops[0].headers).toContainEqual({ name: 'x-test-server', value: 'captures' });

    const served = await call(t.app, { method: 'GET', url: capture.screenshot!.url! });
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['content-security-policy']).toMatch(/^sandbox/);
    expect(sha256(served.raw.rawPayload)).toBe(capture.screenshot!.sha256);

    // The fixity check re-hashes capture files like upload originals.
    const changed = Buffer.concat([screenshot, Buffer.from('x')]);
    await t.app.media.storage.put(row!.screenshotKey!, changed, 'image/png', changed.length);
    const report = await t.app.media.verify();
    await t.app.media.storage.put(row!.screenshotKey!, screenshot, 'image/png', screenshot.length);
    expect(report.mismatched).toEqual([{ id: `capture:${capture.id}`, key: row!.screenshotKey, expected: row!.screenshotSha256, actual: sha256(changed) }]);
    expect(report.ok).toBeGreaterThanOrEqual(2);
    // The WACZ is one more original of the capture: in the fixity check (and so in backups, which list the same files).
    const wacz = await stored(row!.waczKey!);
    const brokenWacz = Buffer.from(wacz);
    brokenWacz[brokenWacz.length >> 1]! ^= 1;
    await t.app.media.storage.put(row!.waczKey!, brokenWacz, 'application/wacz', brokenWacz.length);
    const waczReport = await t.app.media.verify();
    await t.app.media.storage.put(row!.waczKey!, wacz, 'application/wacz', wacz.length);
    expect(waczReport.mismatched.map((m) => m.key)).toEqual([row!.waczKey]);
    twentyWacz = wacz;

    const [entry] = await t.app.db.select().from(auditLog).where(and(eq(auditLog.action, 'capture'), eq(auditLog.subject, `capture:${capture.id}`)));
    expect(entry!.changes).toMatchObject({ capture: { after: { url: `${base}/twenty`, snapshot: { sha256: row!.snapshotSha256 } } } });
  });

  it('the snapshot of the twenty-image page opens offline in Chromium, text and every image from the file itself', async () => {
    expect(twentySnapshot, 'the twenty-image capture runs first').not.toBeNull();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'capture-offline-'));
    const file = path.join(dir, 'snapshot.mhtml');
    writeFileSync(file, twentySnapshot!);
    const browser = await chromium.launch({ executablePath: browserPath, args: [...CHROMIUM_FLAGS] });
    try {
      const context = await browser.newContext({ offline: true });
      const requested: string[] = [];
      // Nothing may come from the network: what shows comes from the snapshot file.
      await context.route(/^https?:/, (route) => {
        requested.push(route.request().url());
        return route.abort();
      });
      const tab = await context.newPage();
      await tab.goto(pathToFileURL(file).href);
      expect(await tab.locator('h1').textContent()).toBe('Test content: a page of twenty images');
      const images = await tab.locator('img').evaluateAll((nodes) => nodes.map((n) => (n as unknown as { naturalWidth: number }).naturalWidth));
      expect(images).toHaveLength(20);
      expect(images.every((width) => width === 120)).toBe(true);
      expect(requested).toEqual([]);
    } finally {
      await browser.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the WACZ of the twenty-image page: WARC/1.1 request and response records whose SHA-256 digests warcio\'s reader confirms, packaged as WACZ 1.1.1', async () => {
    expect(twentyWacz, 'the twenty-image capture runs first').not.toBeNull();
    const files = await readZip(twentyWacz!);
    expect([...files.keys()].sort()).toEqual(['archive/capture.warc.gz', 'datapackage-digest.json', 'datapackage.json', 'indexes/index.cdx', 'pages/pages.jsonl']);
    // Every record's digests, recomputed here from the bytes warcio's parser reads (not by the code that wrote them).
    const warc = files.get('archive/capture.warc.gz')!;
    const types: string[] = [];
    const images = new Set<string>();
    let software = '';
    for await (const record of new WARCParser([new Uint8Array(warc)], { parseHttp: false })) {
      expect(record.warcHeaders.protocol).toBe('WARC/1.1');
      types.push(record.warcType!);
      const block = await record.readFully(false);
      if (record.warcType === 'warcinfo') software = new TextDecoder().decode(block);
      else expect(`sha256:${sha256(Buffer.from(block))}`, `${record.warcType} ${record.warcTargetURI}`).toBe(record.warcBlockDigest);
    }
    for await (const record of new WARCParser([new Uint8Array(warc)])) {
      if (record.warcType !== 'response') continue;
      expect(record.warcDate).toMatch(/^\d{4}-\d\d-\d\dT/);
      const payload = await record.readFully(false);
      expect(`sha256:${sha256(Buffer.from(payload))}`, record.warcTargetURI!).toBe(record.warcPayloadDigest);
      if (/\/img\/\d+\.png$/.test(record.warcTargetURI!)) {
        expect(Buffer.from(payload).subarray(1, 4).toString()).toBe('PNG');
        images.add(record.warcTargetURI!);
      }
    }
    expect(images.size).toBe(20);
    expect(types[0]).toBe('warcinfo');
    expect(types.filter((t) => t === 'request').length).toBe(types.filter((t) => t === 'response').length);
    expect(types).toContain('metadata');
    expect(software).toMatch(/software: .*warcio/);
    expect(software).toMatch(/browser: (Headless)?Chrome\//);
    expect(software).toMatch(/requested-url: http:\/\/127\.0\.0\.1:\d+\/twenty/);

    const datapackage = JSON.parse(files.get('datapackage.json')!.toString());
    expect(datapackage).toMatchObject({ wacz_version: '1.1.1', profile: 'data-package', mainPageUrl: `${base}/twenty` });
    for (const resource of datapackage.resources as { path: string; hash: string; bytes: number }[]) {
      expect(`sha256:${sha256(files.get(resource.path)!)}`, resource.path).toBe(resource.hash);
      expect(files.get(resource.path)!.length).toBe(resource.bytes);
    }
    const pages = files.get('pages/pages.jsonl')!.toString().trim().split('\n').map((l) => JSON.parse(l));
    expect(pages[1]).toMatchObject({ url: `${base}/twenty`, title: 'Twenty images' });
    const index = files.get('indexes/index.cdx')!.toString();
    // One line per response (the page, its 20 images, whatever else the browser asked for) and the metadata record.
    const indexed = index.trim().split('\n').map((l) => JSON.parse(l.slice(l.indexOf('{'))) as { url: string; digest?: string });
    expect(indexed.filter((l) => /\/img\/\d+\.png$/.test(l.url))).toHaveLength(20);
    expect(indexed.some((l) => l.url === `${base}/twenty`)).toBe(true);
  });

  it('refuses a loopback URL that is not admitted, before any request reaches it', async () => {
    const id = await createLink(`${forbiddenBase}/secret`);
    await drainAll();
    const { body } = await capturesOf('links', id, editor.auth);
    expect(body.captures[0]).toMatchObject({ status: 'failed', snapshot: null, screenshot: null });
    expect(body.captures[0]!.reason).toMatch(/refused: .*127\.0\.0\.1, which is not a public internet address/);
    // What the server's DNS resolves is for the record's editors (and the audit log), not every reader.
    for (const reader of [{}, other.auth]) {
      const seen = (await capturesOf('links', id, reader)).body.captures[0]!;
      expect(seen).toMatchObject({ status: 'failed', reason: null });
    }
    expect((await capturesOf('links', id, admin.auth)).body.captures[0]!.reason).toMatch(/127\.0\.0\.1/);
    expect(forbiddenHits).toBe(0);
    const failures = await t.app.db.select().from(auditLog).where(eq(auditLog.subject, `capture:${body.captures[0]!.id}`));
    expect(failures.map((f) => f.action)).toEqual(['capture.failed']);
  });

  it('blocks a redirect from an admitted host to one that is not', async () => {
    const id = await createLink(`${base}/to-forbidden`);
    await drainAll();
    const { body } = await capturesOf('links', id, editor.auth);
    expect(body.captures[0]!.status).toBe('failed');
    expect(body.captures[0]!.reason).toMatch(/not a public internet address/);
    expect(forbiddenHits).toBe(0);
  });

  it('refuses an IPv4-translated address once, for good; tries a name that does not resolve again', async () => {
    const port = new URL(forbiddenBase).port;
    const translated = await createLink(`http://[::ffff:0:7f00:1]:${port}/secret`);
    const unresolved = await createLink('http://capture-test.invalid/page');
    await drainAll();
    const [refused] = (await capturesOf('links', translated, editor.auth)).body.captures;
    expect(refused).toMatchObject({ status: 'failed', attempts: 1 });
    expect(refused!.reason).toMatch(/^refused: .*not a public internet address/);
    const [retried] = (await capturesOf('links', unresolved, editor.auth)).body.captures;
    expect(retried).toMatchObject({ status: 'failed', attempts: 3 });
    expect(retried!.reason).toMatch(/^failed after 3 attempts: the address of capture-test\.invalid could not be looked up: (no site by that name exists|the name service)/);
    expect(forbiddenHits).toBe(0);
  });

  it('refuses file: and data: URLs (which the record forms refuse already)', async () => {
    const record = await createLink(`${base}/twenty?scheme-test`);
    await drainAll();
    for (const url of ['file:///etc/passwd', 'data:text/html,<p>test</p>']) {
      const [row] = await t.app.db.insert(linkCaptures).values({ recordId: record, field: 'linkURL', url }).returning();
      await t.app.jobs.enqueue(CAPTURE_JOB, { captureId: row!.id });
      await drainAll();
      const [after] = await t.app.db.select().from(linkCaptures).where(eq(linkCaptures.id, row!.id));
      expect(after).toMatchObject({ status: 'failed', attempts: 1 });
      expect(after!.reason).toMatch(/only http and https links are captured/);
    }
  });

  it('retries a failing capture, then shows it failed with the reason', async () => {
    const id = await createLink(`${base}/flaky`);
    expect(await t.app.jobs.drain()).toBe(1);
    const waiting = (await capturesOf('links', id, editor.auth)).body.captures[0]!;
    expect(waiting).toMatchObject({ status: 'queued', attempts: 1 });
    expect(waiting.reason).toMatch(/^attempt 1 of 3 failed: the page could not be loaded/);
    expect((await capturesOf('links', id)).body.captures[0]).toMatchObject({ status: 'queued', reason: null });
    await drainAll();
    expect((await capturesOf('links', id)).body.captures[0]).toMatchObject({ status: 'failed', reason: null });
    const failed = (await capturesOf('links', id, editor.auth)).body.captures[0]!;
    expect(failed).toMatchObject({ status: 'failed', attempts: 3 });
    expect(failed.reason).toMatch(/^failed after 3 attempts: the page could not be loaded/);
    expect(flakyHits).toBe(3);
    const [job] = await t.app.db.select().from(jobs).where(sql`${jobs.payload}->>'captureId' = ${failed.id}`);
    expect(job!.state).toBe('failed');
  });

  it('lets the record\'s editors ask for a new capture, and keeps every capture', async () => {
    const id = await createLink(`${base}/missing?again`);
    await t.app.jobs.drain();
    const url = `${API_BASE}/links/${id}/captures`;
    const anonymous = await call(t.app, { method: 'POST', url });
    expect(anonymous.status, JSON.stringify(anonymous.body)).toBe(401);
    expect((await call(t.app, { method: 'POST', url, headers: other.auth })).status).toBe(403);
    const asked = await call(t.app, { method: 'POST', url, headers: editor.auth });
    expect(asked.status).toBe(202);
    expect(asked.body.queued).toHaveLength(1);
    // Asking again while it waits queues nothing more.
    expect((await call(t.app, { method: 'POST', url, headers: editor.auth })).status).toBe(409);
    expect((await call(t.app, { method: 'POST', url, headers: admin.auth, payload: { url: 'https://example.test/not-cited' } })).status).toBe(400);
    await t.app.jobs.drain();
    const { body } = await capturesOf('links', id, editor.auth);
    expect(body.canRequest).toBe(true);
    expect(body.captures.map((c) => c.status)).toEqual(['done', 'done']);
    expect((await capturesOf('links', id, other.auth)).body.canRequest).toBe(false);
    const requests = await t.app.db.select().from(auditLog).where(and(eq(auditLog.action, 'capture.request'), eq(auditLog.recordId, id)));
    expect(requests).toHaveLength(1);
    expect(requests[0]!.actorId).toBe(editor.id);
  });

  it('gives snapshots to editors only, unless an admin opens them to every reader', async () => {
    const id = await createLink(`${base}/twenty?download`);
    await t.app.jobs.drain();
    const anonymous = (await capturesOf('links', id)).body.captures[0]!;
    const snapshotUrl = `${API_BASE}/captures/${anonymous.id}/snapshot.mhtml`;
    expect(anonymous.snapshot!.url).toBeNull();
    expect((await call(t.app, { method: 'GET', url: snapshotUrl })).status).toBe(401);
    expect((await call(t.app, { method: 'GET', url: snapshotUrl, headers: other.auth })).status).toBe(403);
    expect((await call(t.app, { method: 'GET', url: `${API_BASE}/captures/${anonymous.id}/headers.json` })).status).toBe(401);
    const waczUrl = `${API_BASE}/captures/${anonymous.id}/capture.wacz`;
    expect(anonymous.wacz!.url).toBeNull();
    expect((await call(t.app, { method: 'GET', url: waczUrl })).status).toBe(401);
    expect((await call(t.app, { method: 'GET', url: waczUrl, headers: other.auth })).status).toBe(403);

    // The editor is given a signed URL a browser can download without the token.
    const forEditor = (await capturesOf('links', id, editor.auth)).body.captures[0]!;
    expect(forEditor.snapshot!.url).toMatch(/\?v=/);
    const download = await call(t.app, { method: 'GET', url: forEditor.snapshot!.url! });
    expect(download.status).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/^attachment/);
    expect(sha256(download.raw.rawPayload)).toBe(forEditor.snapshot!.sha256);
    expect(forEditor.wacz!.url).toMatch(/\/capture\.wacz\?v=/);
    const waczDownload = await call(t.app, { method: 'GET', url: forEditor.wacz!.url! });
    expect(waczDownload.status).toBe(200);
    expect(waczDownload.headers['content-type']).toBe('application/wacz');
    expect(waczDownload.headers['content-disposition']).toMatch(/^attachment; filename="capture-.*-capture\.wacz"/);
    expect(sha256(waczDownload.raw.rawPayload)).toBe(forEditor.wacz!.sha256);

    const settings = `${API_BASE}/links/${id}/captures/settings`;
    expect((await call(t.app, { method: 'PUT', url: settings, headers: editor.auth, payload: { publicDownload: true } })).status).toBe(403);
    const opened = await call(t.app, { method: 'PUT', url: settings, headers: admin.auth, payload: { publicDownload: true } });
    expect(opened.status).toBe(200);
    expect(opened.body.publicDownload).toBe(true);
    expect((await capturesOf('links', id)).body.captures[0]!.snapshot!.url).toBe(snapshotUrl);
    expect((await call(t.app, { method: 'GET', url: snapshotUrl })).status).toBe(200);
    const [logged] = await t.app.db.select().from(auditLog).where(and(eq(auditLog.action, 'capture.settings'), eq(auditLog.recordId, id)));
    expect(logged!.changes).toEqual({ capturePublicDownload: { before: false, after: true } });
  });

  it('queues captures of the URLs an edit adds, and none for unchanged ones', async () => {
    const id = await createLink(`${base}/missing?edit-before`);
    await t.app.jobs.drain();
    const edit = (payload: Record<string, string>) => call(t.app, { method: 'PUT', url: `${API_BASE}/links/${id}/edit`, headers: editor.auth, payload });
    expect((await edit({ title: 'Capture test, new title' })).status).toBe(200);
    expect((await capturesOf('links', id)).body.captures).toHaveLength(1);
    expect((await edit({ linkURL: `${base}/missing?edit-after` })).status).toBe(200);
    const { body } = await capturesOf('links', id);
    expect(body.captures.map((c) => [c.url, c.status])).toEqual([
      [`${base}/missing?edit-after`, 'queued'],
      [`${base}/missing?edit-before`, 'done'],
    ]);
    await t.app.jobs.drain();
  });
});
