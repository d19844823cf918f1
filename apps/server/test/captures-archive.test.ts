import { execFileSync } from 'node:child_process';
import { createHash, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { API_BASE, CATEGORIES, CHROMIUM_FLAGS, type RecordCapturesDto } from '@app/shared';
import { linkCaptures } from '../src/db/schema';
import { browserAvailable } from '../src/modules/captures/browser';
import { verifyCapture } from '../src/modules/captures/cli';
import { readZip } from '../src/modules/captures/verify-wacz';
import { requestTimestamp } from '../src/services/timestamping';
import { call, createTestApp, createUser, type TestApp } from './helpers';
import { startOpensslTsa } from './openssl-tsa';
import { sampleFields } from './records-helpers';

/**
 * A capture's web archive end to end, against an https page of twenty images this test serves on loopback (a
 * self-signed test certificate; CAPTURE_ACCEPT_INVALID_TLS) and a local openssl time-stamping authority: the TLS chain
 * kept, the WACZ signed and time-stamped, `verify-capture` holding for the genuine file and failing for each kind of
 * tampering, and ReplayWeb.page replaying the page from the WACZ alone. All pages are test content.
 */

const browserPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveBrowser = browserAvailable(browserPath);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A WACZ rebuilt with some of its files changed (stored, uncompressed, in the same order). */
async function rezip(files: Map<string, Buffer>, changes: Record<string, Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of files) zip.addBuffer(changes[name] ?? content, name, { compress: false });
  zip.end();
  return buffer(zip.outputStream);
}

describe.skipIf(!haveBrowser)(`the web archive of a capture${haveBrowser ? '' : ` (skipped: no browser at ${browserPath})`}`, () => {
  let t: TestApp;
  let tsa: Awaited<ReturnType<typeof startOpensslTsa>>;
  let site: https.Server;
  let base = '';
  let dir = '';
  let siteCertPem = '';
  let caFile = '';
  let row: typeof linkCaptures.$inferSelect;
  let wacz: Buffer;
  let files: Map<string, Buffer>;
  let editor: Awaited<ReturnType<typeof createUser>>;
  let captureSeconds = 0;

  const run = async (args: string[]) => {
    const lines: string[] = [];
    const code = await verifyCapture(args, (l) => lines.push(l));
    return { code, out: lines.join('\n') };
  };
  const write = (name: string, bytes: Buffer | string) => {
    const file = path.join(dir, name);
    writeFileSync(file, bytes);
    return file;
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'capture-archive-'));
    tsa = await startOpensslTsa();
    caFile = write('tsa-roots.pem', tsa.trustedRootPem);
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', path.join(dir, 'site.key'), '-out', path.join(dir, 'site.pem'),
      '-subj', '/CN=Capture test site, not a real site', '-addext', 'subjectAltName=IP:127.0.0.1', '-days', '2',
    ], { stdio: 'pipe' });
    siteCertPem = readFileSync(path.join(dir, 'site.pem'), 'utf8');
    const images = await Promise.all(
      Array.from({ length: 20 }, (_, i) => sharp({ create: { width: 120, height: 90, channels: 3, background: { r: i * 12, g: 60, b: 120 } } }).png().toBuffer()),
    );
    site = https.createServer({ key: readFileSync(path.join(dir, 'site.key')), cert: siteCertPem }, (req, res) => {
      const img = /^\/img\/(\d+)\.png$/.exec(req.url ?? '');
      if (img) return res.writeHead(200, { 'content-type': 'image/png' }).end(images[Number(img[1])]);
      if (req.url === '/twenty') {
        const imgs = images.map((_, i) => `<img src="/img/${i}.png" alt="test image ${i}" width="120" height="90">`).join('');
        return res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(`<!doctype html><html><head><title>Twenty images</title></head><body><h1>Test content: a page of twenty images</h1>${imgs}</body></html>`);
      }
      return res.writeHead(404).end('test content: not found');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    base = `https://127.0.0.1:${(site.address() as AddressInfo).port}`;
    t = await createTestApp({
      CAPTURE_ALLOW_HOSTS: new URL(base).host,
      CAPTURE_BROWSER_PATH: browserPath,
      CAPTURE_TIMEOUT_SECONDS: '30',
      CAPTURE_ACCEPT_INVALID_TLS: 'true',
      TSA_URL: tsa.url,
      TSA_CA_FILE: caFile,
    });
    editor = await createUser(t.app, 'contributor');
    const created = await call(t.app, {
      method: 'POST',
      url: `${API_BASE}/links`,
      headers: editor.auth,
      payload: { ...sampleFields(CATEGORIES.links, 'Capture archive test'), linkURL: `${base}/twenty` },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const started = Date.now();
    expect(await t.app.jobs.drain()).toBe(1);
    captureSeconds = (Date.now() - started) / 1000;
    [row] = (await t.app.db.select().from(linkCaptures).where(eq(linkCaptures.recordId, created.body._id as string))) as [typeof row];
    expect(row).toMatchObject({ status: 'done', httpStatus: 200 });
    wacz = await buffer(await t.app.media.storage.get(row.waczKey!));
    files = await readZip(wacz);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    site?.close();
    await tsa?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the TLS certificate chain the cited site showed, as PEM', async () => {
    const pem = (await buffer(await t.app.media.storage.get(row.certificatesKey!))).toString();
    expect(sha256(Buffer.from(pem))).toBe(row.certificatesSha256);
    expect(pem).toContain(`# ${base}`);
    const der = (p: string) => Buffer.from(p.replace(/-----[A-Z ]+-----|\s|#.*\n/g, ''), 'base64');
    const first = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/.exec(pem)![0];
    expect(der(first).equals(der(siteCertPem))).toBe(true);
    const listed = (await call(t.app, { method: 'GET', url: `${API_BASE}/links/${row.recordId}/captures`, headers: editor.auth })).body as RecordCapturesDto;
    const download = await call(t.app, { method: 'GET', url: listed.captures[0]!.certificates!.url! });
    expect([download.status, download.headers['content-type']]).toEqual([200, 'application/x-pem-file']);
  });

  it("signs datapackage-digest.json with the published capture key, and time-stamps the same hash (verified on receipt, and by openssl)", async () => {
    const digest = JSON.parse(files.get('datapackage-digest.json')!.toString());
    const datapackage = files.get('datapackage.json')!;
    expect(digest.hash).toBe(`sha256:${sha256(datapackage)}`);
    const signed = digest.signedData;
    expect(signed).toMatchObject({ hash: digest.hash, software: expect.stringContaining('js-wacz'), created: expect.any(String) });
    const published = (await t.app.inject({ method: 'GET', url: '/.well-known/capture-key' })).body;
    const key = createPublicKey(published);
    expect(Buffer.from(signed.publicKey, 'base64').equals(key.export({ type: 'spki', format: 'der' }))).toBe(true);
    expect(key.asymmetricKeyDetails?.namedCurve).toBe('secp384r1');
    expect(verify('sha256', Buffer.from(signed.hash), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signed.signature, 'base64'))).toBe(true);
    // The token, checked by openssl against the trusted root: it is over datapackage.json itself.
    writeFileSync(path.join(dir, 'token.der'), Buffer.from(signed.timestampToken, 'base64'));
    writeFileSync(path.join(dir, 'datapackage.json'), datapackage);
    const out = execFileSync('openssl', ['ts', '-verify', '-data', 'datapackage.json', '-in', 'token.der', '-token_in', '-CAfile', caFile], { cwd: dir }).toString();
    expect(out).toMatch(/Verification: OK/);
    expect(row.timestampedAt).toBeInstanceOf(Date);
    expect(row.timestampFailure).toBeNull();
  });

  it('records a time-stamp token that does not verify as the capture\'s failure, and leaves it out of the WACZ', async () => {
    tsa.setMode('untrusted');
    try {
      const asked = await call(t.app, { method: 'POST', url: `${API_BASE}/links/${row.recordId}/captures`, headers: editor.auth });
      expect(asked.status).toBe(202);
      expect(await t.app.jobs.drain()).toBe(1);
    } finally {
      tsa.setMode('good');
    }
    const [again] = await t.app.db.select().from(linkCaptures).where(eq(linkCaptures.id, (await call(t.app, { method: 'GET', url: `${API_BASE}/links/${row.recordId}/captures`, headers: editor.auth })).body.captures[0].id));
    expect(again).toMatchObject({ status: 'done', timestampedAt: null });
    expect(again!.timestampFailure).toMatch(/refused: .*does not chain to an authority in TSA_CA_FILE/);
    const digest = JSON.parse((await readZip(await buffer(await t.app.media.storage.get(again!.waczKey!)))).get('datapackage-digest.json')!.toString());
    expect(digest.signedData.signature).toEqual(expect.any(String));
    expect(digest.signedData.timestampToken).toBeUndefined();
    // Made again without the mark that a token was asked for: it verifies as a capture without a time-stamp.
    const againFiles = await readZip(await buffer(await t.app.media.storage.get(again!.waczKey!)));
    expect(JSON.parse(againFiles.get('datapackage.json')!.toString()).extras).toEqual({ captureId: again!.id, requestedUrl: row.url });
    const keyFile = write('capture-key-untrusted.pem', (await t.app.inject({ method: 'GET', url: '/.well-known/capture-key' })).body);
    const verified = await run([write('untrusted-tsa.wacz', await buffer(await t.app.media.storage.get(again!.waczKey!))), '--key', keyFile]);
    expect(verified.code, verified.out).toBe(0);
    expect(verified.out).toMatch(/OK {3}no RFC 3161 time-stamp \(the site had no TSA_URL, or the authority failed\)/);
  });

  it('verify-capture fails on a capture whose time-stamp token was taken out: the signed datapackage.json says it was stamped', async () => {
    expect(JSON.parse(files.get('datapackage.json')!.toString()).extras).toMatchObject({ timestampRequested: true });
    const digest = JSON.parse(files.get('datapackage-digest.json')!.toString());
    const { timestampToken, ...withoutToken } = digest.signedData;
    expect(timestampToken).toEqual(expect.any(String));
    const stripped = await rezip(files, { 'datapackage-digest.json': Buffer.from(JSON.stringify({ ...digest, signedData: withoutToken })) });
    const keyFile = write('capture-key-stripped.pem', (await t.app.inject({ method: 'GET', url: '/.well-known/capture-key' })).body);
    const result = await run([write('stripped-timestamp.wacz', stripped), '--key', keyFile, '--tsa-ca', caFile]);
    expect(result.code, result.out).toBe(1);
    expect(result.out).toMatch(/FAIL no RFC 3161 time-stamp, but the signed datapackage\.json says the capture was time-stamped/);
    // The signature itself still holds: only the missing token fails.
    expect(result.out).toMatch(/OK {3}the signature of that hash verifies/);
  });

  it('verify-capture: every check holds for the file as downloaded, with the key as a file, a URL, or the site\'s own', async () => {
    const file = write('genuine.wacz', wacz);
    const keyFile = write('capture-key.pem', (await t.app.inject({ method: 'GET', url: '/.well-known/capture-key' })).body);
    const withFile = await run([file, '--key', keyFile, '--tsa-ca', caFile]);
    expect(withFile.code, withFile.out).toBe(0);
    expect(withFile.out).toMatch(/OK {3}archive\/capture\.warc\.gz: all \d+ WARC records match their digests/);
    expect(withFile.out).toMatch(/OK {3}datapackage\.json: all 3 files match/);
    expect(withFile.out).toMatch(/OK {3}the signing key is the site's published key/);
    expect(withFile.out).toMatch(/OK {3}the RFC 3161 time-stamp of that hash verifies: .*a trusted authority/);
    expect(withFile.out).not.toMatch(/FAIL/);

    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const withUrl = await run([file, '--key', `${address}/.well-known/capture-key`]);
    expect(withUrl.code, withUrl.out).toBe(0);
    expect(withUrl.out).toMatch(/chain was not checked: give trusted authorities with --tsa-ca/);
    // No key given: the site's own, from its data folder.
    const saved = process.env.DATA_DIR;
    process.env.DATA_DIR = t.app.config.dataDir;
    try {
      const own = await run([file]);
      expect(own.code, own.out).toBe(0);
      expect(own.out).toMatch(/Key: this site's capture key/);
    } finally {
      if (saved === undefined) delete process.env.DATA_DIR;
      else process.env.DATA_DIR = saved;
    }
  });

  it('verify-capture fails on a flipped byte in any WARC record, a changed datapackage.json, a wrong key and a forged time-stamp', async () => {
    const keyFile = write('capture-key-2.pem', (await t.app.inject({ method: 'GET', url: '/.well-known/capture-key' })).body);
    const check = async (name: string, bytes: Buffer, extra: string[] = []) => run([write(name, bytes), '--key', keyFile, '--tsa-ca', caFile, ...extra]);
    const warc = files.get('archive/capture.warc.gz')!;

    // A byte flipped near the start, the middle and the end of the WARC file: each in another record.
    for (const at of [40, warc.length >> 1, warc.length - 40]) {
      const flipped = Buffer.from(warc);
      flipped[at]! ^= 0x10;
      const result = await check(`flipped-${at}.wacz`, await rezip(files, { 'archive/capture.warc.gz': flipped }));
      expect(result.code, result.out).toBe(1);
      expect(result.out).toMatch(/FAIL archive\/capture\.warc\.gz/);
    }
    // A changed image inside an uncompressed copy of the records: its own payload digest no longer matches.
    const plain = gunzipSync(warc);
    const png = plain.indexOf(Buffer.from('IDAT'));
    plain[png + 10]! ^= 0x01;
    const changedRecord = await check('changed-record.wacz', await rezip(files, { 'archive/capture.warc.gz': plain }));
    expect(changedRecord.code).toBe(1);
    expect(changedRecord.out).toMatch(/FAIL archive\/capture\.warc\.gz: response https:\/\/127\.0\.0\.1:\d+\/img\/\d+\.png: its (payload|block) digest does not match/);

    // datapackage.json changed (a false page URL): its hash is no longer the signed one.
    const datapackage = files.get('datapackage.json')!.toString();
    const falseUrl = Buffer.from(datapackage.replace(/"mainPageUrl": "[^"]*"/, '"mainPageUrl": "https://example.test/not-what-was-captured"'));
    const changed = await check('changed-datapackage.wacz', await rezip(files, { 'datapackage.json': falseUrl }));
    expect(changed.code).toBe(1);
    expect(changed.out).toMatch(/FAIL datapackage-digest\.json's hash is not datapackage\.json's/);
    // ... and with the digest recomputed to match, the signature fails.
    const digest = JSON.parse(files.get('datapackage-digest.json')!.toString());
    const recomputed = Buffer.from(JSON.stringify({ ...digest, hash: `sha256:${sha256(falseUrl)}` }));
    const resigned = await check('recomputed-digest.wacz', await rezip(files, { 'datapackage.json': falseUrl, 'datapackage-digest.json': recomputed }));
    expect(resigned.code).toBe(1);
    expect(resigned.out).toMatch(/FAIL the signature does not verify/);

    // Another key than the site's: the file verifies with the key it carries, but it is not the published one.
    const other = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const wrongKey = await run([write('genuine-2.wacz', wacz), '--key', write('other-key.pem', other)]);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.out).toMatch(/FAIL the signing key \(SHA-256 [0-9a-f]+\) is not the published key given/);

    // A forged time-stamp: a token over the same hash from an authority nobody trusts, and a token for other data.
    tsa.setMode('untrusted');
    const forged = await requestTimestamp(tsa.url, files.get('datapackage.json')!);
    tsa.setMode('good');
    const forgedDigest = Buffer.from(JSON.stringify({ ...digest, signedData: { ...digest.signedData, timestampToken: forged.token.toString('base64') } }));
    const untrusted = await check('forged-timestamp.wacz', await rezip(files, { 'datapackage-digest.json': forgedDigest }));
    expect(untrusted.code).toBe(1);
    expect(untrusted.out).toMatch(/FAIL the time-stamp does not verify: .*does not chain to an authority/);
    const otherData = await requestTimestamp(tsa.url, Buffer.from('test content: another file'));
    const otherDigest = Buffer.from(JSON.stringify({ ...digest, signedData: { ...digest.signedData, timestampToken: otherData.token.toString('base64') } }));
    const misplaced = await run([write('other-timestamp.wacz', await rezip(files, { 'datapackage-digest.json': otherDigest })), '--key', keyFile]);
    expect(misplaced.code).toBe(1);
    expect(misplaced.out).toMatch(/FAIL the time-stamp does not verify: the time-stamp token is for other data/);
  });


  it('ReplayWeb.page replays the page from the WACZ alone in Chromium: its heading and all 20 images, every other request refused', async () => {
    site.close();
    // The package's static app (its exports hide package.json from resolution): the workspace's node_modules.
    const replayDir = fileURLToPath(new URL('../../../node_modules/replaywebpage/', import.meta.url));
    const pageUrl = `${base}/twenty`;
    const index = `<!doctype html><html><head><title>Replay test</title><script src="/ui.js"></script></head><body>
<replay-web-page source="/capture.wacz" url="${pageUrl}" replayBase="/replay/" embed="replayonly" style="display:block;width:1280px;height:900px"></replay-web-page></body></html>`;
    const server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://replay.test');
      if (url.pathname === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(index);
      if (url.pathname === '/capture.wacz') {
        const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
        if (!range) return res.writeHead(200, { 'content-type': 'application/wacz', 'content-length': wacz.length, 'accept-ranges': 'bytes' }).end(wacz);
        const start = Number(range[1]);
        const end = range[2] ? Math.min(Number(range[2]), wacz.length - 1) : wacz.length - 1;
        return res
          .writeHead(206, { 'content-type': 'application/wacz', 'content-range': `bytes ${start}-${end}/${wacz.length}`, 'content-length': end - start + 1, 'accept-ranges': 'bytes' })
          .end(wacz.subarray(start, end + 1));
      }
      const name = url.pathname.replace(/^\/(replay\/)?/, '');
      const file = path.join(replayDir, name);
      if (name && !name.includes('..') && existsSync(file) && statSync(file).isFile()) {
        const type = name.endsWith('.js') ? 'application/javascript' : name.endsWith('.html') ? 'text/html' : 'application/octet-stream';
        return res.writeHead(200, { 'content-type': type }).end(readFileSync(file));
      }
      if (url.pathname === '/replay/' || url.pathname === '/replay/index.html') return res.writeHead(200, { 'content-type': 'text/html' }).end(index);
      return res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const replayOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const browser = await chromium.launch({ executablePath: browserPath, args: [...CHROMIUM_FLAGS] });
    const refused: string[] = [];
    try {
      const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
      // Only the replay server is reachable (the cited site is closed besides): what shows comes from the WACZ.
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith(`${replayOrigin}/`)) return route.continue();
        refused.push(url);
        return route.abort();
      });
      const tab = await context.newPage();
      await tab.goto(replayOrigin);
      // The replayed page's frame (ReplayWeb.page may navigate it once more as it settles): looked up on every poll.
      const frameOf = () => tab.frames().find((f) => f.url().includes(`mp_/${pageUrl}`));
      const heading = async () => (await frameOf()?.locator('h1').textContent({ timeout: 1000 }).catch(() => null)) ?? null;
      await expect.poll(heading, { timeout: 90_000 }).toBe('Test content: a page of twenty images');
      const widths = async () =>
        (await frameOf()
          ?.locator('img')
          .evaluateAll((nodes) => nodes.map((n) => (n as unknown as { naturalWidth: number }).naturalWidth))
          .catch(() => [] as number[])) ?? [];
      await expect.poll(async () => (await widths()).filter((w) => w === 120).length, { timeout: 60_000 }).toBe(20);
      expect(refused.filter((u) => !u.startsWith('data:') && !u.startsWith('blob:'))).toEqual([]);
    } finally {
      await browser.close();
      server.close();
    }
    const sizes = { snapshot: row.snapshotSize!, screenshot: row.screenshotSize!, headers: row.headersSize!, wacz: row.waczSize!, certificates: row.certificatesSize! };
    const without = sizes.snapshot + sizes.screenshot + sizes.headers;
    console.log(
      `figures, 20-image page over https with a time-stamp: capture job ${captureSeconds.toFixed(2)} s (browser started in it); ` +
        `stored ${without} bytes without the WACZ (snapshot ${sizes.snapshot}, screenshot ${sizes.screenshot}, headers ${sizes.headers}), ` +
        `${without + sizes.wacz + sizes.certificates} with it (WACZ ${sizes.wacz}, certificates ${sizes.certificates})`,
    );
  });
});
