import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE } from '@app/shared';
import { auditLog, linkCaptures } from '../src/db/schema';
import { desc, eq } from 'drizzle-orm';
import { packageCommand } from '../src/modules/evidence-package/cli';
import { CaptureSigner } from '../src/modules/captures/signing';
import { packageWacz } from '../src/modules/captures/wacz';
import { writeWarc } from '../src/modules/captures/warc';
import { verifyPackage } from '../src/modules/evidence-package/verify';
import { startPackage } from '../src/modules/evidence-package/package';
import { TimestampTrust } from '../src/services/timestamping';
import { call } from './helpers';
import { useTestApp } from './fixtures/app';
import { multipart, testImage } from './records-helpers';
import { startOpensslTsa } from './openssl-tsa';

const run = promisify(execFile);

/**
 * Evidence packages (issue 59): a sample incident with people, originals, a withheld testimony and a capture,
 * packaged over the API; the bag checked with sha256sum and openssl as docs/evidence-packages.md says, and with
 * verify-package; then each kind of tampering, each caught. Test data only.
 */

const WITNESS = { kind: 'witness', title: 'Testimony of test witness Q', note: 'Test witness lives at test address 7', withheld: true };
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

describe('evidence package', () => {
  const { t, admin, contributor } = useTestApp({ admin: 'admin', contributor: 'contributor' });
  let tsa: Awaited<ReturnType<typeof startOpensslTsa>>;
  let dir: string;
  let incident: string;
  let zipFile: string;
  let options: Parameters<typeof verifyPackage>[1];

  const unpack = async (zip: string) => {
    const to = mkdtempSync(path.join(dir, 'bag-'));
    await run('unzip', ['-q', zip, '-d', to]);
    return to;
  };
  const files = (root: string, sub = ''): string[] =>
    readdirSync(path.join(root, sub)).flatMap((name) => (statSync(path.join(root, sub, name)).isDirectory() ? files(root, path.join(sub, name)) : [path.join(sub, name)]));
  /** The bag's manifests written again for its files as they now are: an attacker who knows BagIt. */
  const rehash = (bag: string) => {
    const payload = files(bag).filter((f) => f.startsWith('data/')).sort();
    writeFileSync(path.join(bag, 'manifest-sha256.txt'), payload.map((f) => `${sha256(readFileSync(path.join(bag, f)))}  ${f}\n`).join(''));
    const tags = ['bagit.txt', 'bag-info.txt', 'manifest-sha256.txt'];
    writeFileSync(path.join(bag, 'tagmanifest-sha256.txt'), tags.map((f) => `${sha256(readFileSync(path.join(bag, f)))}  ${f}\n`).join(''));
  };
  const repack = async (bag: string) => {
    const out = path.join(dir, `tampered-${Math.random().toString(36).slice(2)}.zip`);
    await run('zip', ['-q', '-r', out, '.'], { cwd: bag });
    return out;
  };
  const failures = async (zip: string) => (await verifyPackage(zip, options)).checks.filter((c) => !c.ok).map((c) => c.what);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'evidence-package-test-'));
    tsa = await startOpensslTsa();
    const body = multipart(
      { title: 'Test massacre for a package (test data)', description: 'Sample incident <b>test data</b>, not a real event.', sources: JSON.stringify([WITNESS]) },
      [{ field: 'files[]', filename: 'test-photo.png', type: 'image/png', data: await testImage(3) }],
    );
    const made = await call(t.app, { method: 'POST', url: `${API_BASE}/massacres`, headers: { ...contributor.auth, ...body.headers }, payload: body.payload });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    incident = made.body._id;
    // Another record, made private, whose entries lie between the incident's: its entries leave only sealed.
    const other = await call(t.app, { method: 'POST', url: `${API_BASE}/events`, headers: admin.auth, payload: { title: 'Test private event (test data)', description: 'Test private detail 41.' } });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    expect((await call(t.app, { method: 'PUT', url: `${API_BASE}/events/${other.body._id}/access`, headers: admin.auth })).status).toBe(200);
    for (const n of [1, 2]) {
      const person = await call(t.app, { method: 'POST', url: `${API_BASE}/victims`, headers: contributor.auth, payload: { title: `Test victim ${n} (test data)`, description: 'Test data.', incidentId: incident } });
      expect(person.status, JSON.stringify(person.body)).toBe(201);
    }
    const edit = multipart({ title: 'Test massacre for a package, edited (test data)' });
    expect((await call(t.app, { method: 'PUT', url: `${API_BASE}/massacres/${incident}/edit`, headers: { ...admin.auth, ...edit.headers }, payload: edit.payload })).status).toBe(200);
    await addCapture();
    expect((await call(t.app, { method: 'POST', url: `${API_BASE}/audit/checkpoints`, headers: admin.auth })).status).toBe(201);
    expect(await t.app.audit.stampCheckpoints(tsa.url)).toBeGreaterThan(0);
    options = { publicKeyPem: t.app.auditSigner.publicKeyPem, capturePublicKeyPem: CaptureSigner.forDataDir(t.dataDir).publicKeyPem, tsaTrust: TimestampTrust.fromPem(tsa.trustedRootPem) };
    const res = await t.app.inject({ method: 'GET', url: `${API_BASE}/massacres/${incident}/evidence-package`, headers: admin.auth });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    zipFile = path.join(dir, 'package.zip');
    writeFileSync(zipFile, res.rawPayload);
  });
  afterAll(async () => {
    await tsa?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function addCapture() {
    const signer = CaptureSigner.forDataDir(t.dataDir);
    const at = new Date();
    const warc = await writeWarc(
      [{ url: 'https://example.org/test-page', method: 'GET', requestHeaders: [], requestBody: null, status: 200, statusText: 'OK', responseHeaders: [['content-type', 'text/html']], body: Buffer.from('<h1>Test page</h1>'), at }],
      { software: 'test', settings: {}, filename: 'capture.warc.gz' },
      { title: 'Test page' },
    );
    const packaged = await packageWacz(warc, { url: 'https://example.org/test-page', title: 'Test page', capturedAt: at }, { signer, software: 'test', timestamp: { tsaUrl: tsa.url, trust: TimestampTrust.fromPem(tsa.trustedRootPem) } });
    const shot = await testImage(9);
    const [row] = await t.app.db.insert(linkCaptures).values({ recordId: incident, field: 'evidence', url: 'https://example.org/test-page', status: 'done', capturedAt: at, finalUrl: 'https://example.org/test-page', httpStatus: 200 }).returning();
    const put = async (name: string, bytes: Buffer) => {
      const key = `originals/captures/${row!.id}/${name}`;
      await t.app.media.storage.put(key, bytes, 'application/octet-stream');
      return { key, sha: sha256(bytes), size: bytes.length };
    };
    const wacz = await put('capture.wacz', packaged.wacz);
    const png = await put('screenshot.png', shot);
    await t.app.db
      .update(linkCaptures)
      .set({ waczKey: wacz.key, waczSha256: wacz.sha, waczSize: wacz.size, screenshotKey: png.key, screenshotSha256: png.sha, screenshotSize: png.size, timestampedAt: packaged.timestamp && 'time' in packaged.timestamp ? packaged.timestamp.time : null })
      .where(eq(linkCaptures.id, row!.id));
    await t.app.audit.append({ actor: null, action: 'capture.done', category: 'massacres', recordId: incident, subject: row!.id, changes: { 'capture.wacz': { before: null, after: wacz.sha } } });
  }

  it('is refused to anonymous readers and contributors, and to a withheld choice not confirmed', async () => {
    const url = `${API_BASE}/massacres/${incident}/evidence-package`;
    expect((await call(t.app, { method: 'GET', url })).status).toBe(401);
    expect((await call(t.app, { method: 'GET', url, headers: contributor.auth })).status).toBe(403);
    const unconfirmed = await call(t.app, { method: 'GET', url: `${url}?withheld=include`, headers: admin.auth });
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body.confirm).toMatch(/confirm=yes/);
    expect((await call(t.app, { method: 'GET', url: `${API_BASE}/massacres/00000000-0000-4000-8000-000000000000/evidence-package`, headers: admin.auth })).status).toBe(404);
  });

  it('gives staff a signed download link, for that record and without withheld testimony only', async () => {
    const linkUrl = `${API_BASE}/massacres/${incident}/evidence-package/link`;
    expect((await call(t.app, { method: 'POST', url: linkUrl })).status).toBe(401);
    expect((await call(t.app, { method: 'POST', url: linkUrl, headers: contributor.auth })).status).toBe(403);
    const link = await call(t.app, { method: 'POST', url: linkUrl, headers: admin.auth });
    expect(link.status).toBe(200);
    const signed = link.body.url as string;
    const download = await t.app.inject({ method: 'GET', url: signed });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    expect((await call(t.app, { method: 'GET', url: `${signed}&withheld=include&confirm=yes` })).status).toBe(401);
    expect((await call(t.app, { method: 'GET', url: signed.replace(incident, '00000000-0000-4000-8000-000000000000') })).status).toBe(401);
    expect((await call(t.app, { method: 'GET', url: `${signed.slice(0, -3)}abc` })).status).toBe(401);
  });

  it('passes sha256sum -c, openssl on a checkpoint signature and time-stamp, and verify-package', async () => {
    const bag = await unpack(zipFile);
    const sums = await run('sha256sum', ['-c', 'manifest-sha256.txt'], { cwd: bag });
    expect(sums.stdout).not.toMatch(/FAILED/);
    expect(sums.stdout.split('\n').filter((l) => l.endsWith(': OK')).length).toBeGreaterThan(10);
    await run('sha256sum', ['-c', 'tagmanifest-sha256.txt'], { cwd: bag });
    const info = readFileSync(path.join(bag, 'bag-info.txt'), 'utf8');
    for (const label of ['Source-Organization', 'Contact-Email', 'External-Identifier', 'Bagging-Date', 'Payload-Oxum', 'Bag-Size']) expect(info).toMatch(new RegExp(`^${label}: .+$`, 'm'));
    const stamped = readdirSync(path.join(bag, 'data/checkpoints')).find((seq) => files(bag).includes(`data/checkpoints/${seq}/timestamp.tsr`))!;
    const key = files(bag).find((f) => f.startsWith('data/keys/audit-key-'))!;
    const ck = `data/checkpoints/${stamped}`;
    const sig = await run('openssl', ['pkeyutl', '-verify', '-pubin', '-inkey', key, '-rawin', '-in', `${ck}/statement.txt`, '-sigfile', `${ck}/signature.bin`], { cwd: bag });
    expect(sig.stdout).toMatch(/Signature Verified Successfully/);
    writeFileSync(path.join(bag, 'tsa-ca.pem'), tsa.trustedRootPem);
    const ts = await run('openssl', ['ts', '-verify', '-data', `${ck}/statement.txt`, '-in', `${ck}/timestamp.tsr`, '-token_in', '-CAfile', 'tsa-ca.pem'], { cwd: bag });
    expect(ts.stdout).toMatch(/Verification: OK/);
    const capture = files(bag).find((f) => f.endsWith('/timestamp-imprint.txt'))!.replace('/timestamp-imprint.txt', '');
    const digest = readFileSync(path.join(bag, capture, 'timestamp-imprint.txt'), 'utf8').trim();
    const captureTs = await run('openssl', ['ts', '-verify', '-digest', digest, '-in', `${capture}/timestamp.tsr`, '-token_in', '-CAfile', 'tsa-ca.pem'], { cwd: bag });
    expect(captureTs.stdout).toMatch(/Verification: OK/);
    const report = await verifyPackage(zipFile, options);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.checks.map((c) => c.what).join('\n')).toMatch(/WARC records match/);
    const cli = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'verify-package', zipFile, '--key', path.join(bag, key)], { cwd: path.resolve(__dirname, '..') });
    expect(cli.stdout).toMatch(/every check holds/);
  });

  it('holds the record, its versions, its people, originals as uploaded, public copies and the capture', async () => {
    const bag = await unpack(zipFile);
    const record = JSON.parse(readFileSync(path.join(bag, 'data/record.json'), 'utf8'));
    expect(record.title).toMatch(/edited/);
    const versions = JSON.parse(readFileSync(path.join(bag, 'data/record-versions.json'), 'utf8'));
    expect(versions.map((v: { action: string }) => v.action)).toEqual(expect.arrayContaining(['create', 'edit']));
    expect(versions[0].fields.title).not.toMatch(/edited/);
    expect(readdirSync(path.join(bag, 'data/people'))).toHaveLength(2);
    const originals = JSON.parse(readFileSync(path.join(bag, 'data/originals.json'), 'utf8'));
    expect(originals).toHaveLength(1);
    expect(sha256(readFileSync(path.join(bag, originals[0].file)))).toBe(originals[0].sha256AtUpload);
    expect(originals[0].uploadedBy).toBe(contributor.id);
    expect(readdirSync(path.join(bag, 'data/public')).length).toBeGreaterThan(0);
    expect(files(bag).some((f) => /^data\/captures\/[^/]+\/capture\.wacz$/.test(f))).toBe(true);
    const readme = readFileSync(path.join(bag, 'data/README.html'), 'utf8');
    expect(readme).toContain('&lt;b&gt;test data&lt;/b&gt;');
    expect(readme).not.toContain('<b>test data</b>');
  });

  it('leaves withheld testimony out unless chosen and confirmed, and records each packaging in the audit log', async () => {
    const bag = await unpack(zipFile);
    const everything = files(bag).map((f) => readFileSync(path.join(bag, f)).toString('latin1')).join('\n');
    expect(everything).not.toContain('test address 7');
    expect(everything).not.toContain('Test private detail 41');
    const custody = readFileSync(path.join(bag, 'data/custody.ndjson'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(custody.filter((l) => l.sealed).map((l) => l.sealed)).toEqual(expect.arrayContaining([expect.stringMatching(/withheld/), expect.stringMatching(/not public/)]));
    expect(JSON.parse(readFileSync(path.join(bag, 'data/custody.ndjson'), 'utf8').split('\n')[0]!)).toHaveProperty('type', 'entry');
    const res = await t.app.inject({ method: 'GET', url: `${API_BASE}/massacres/${incident}/evidence-package?withheld=include&confirm=yes`, headers: admin.auth });
    expect(res.statusCode).toBe(200);
    const withWitness = path.join(dir, 'with-witness.zip');
    writeFileSync(withWitness, res.rawPayload);
    const sources = JSON.parse(readFileSync(path.join(await unpack(withWitness), 'data/sources.json'), 'utf8'));
    expect(JSON.stringify(sources)).toContain('test address 7');
    expect((await verifyPackage(withWitness, options)).ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const entries = await t.app.db.select().from(auditLog).where(eq(auditLog.action, 'evidence-package'));
    expect(entries.map((e) => e.changes.withheldTestimony?.after)).toEqual(expect.arrayContaining(['left out', 'included']));
    const included = entries.find((e) => e.changes.withheldTestimony?.after === 'included')!;
    expect(included.actorId).toBe(admin.id);
    expect(included.changes.sha256?.after).toBe(sha256(res.rawPayload));
  });

  it('is written by the package command too, and verify-package exits non-zero on a changed package', async () => {
    const out = path.join(dir, 'from-cli.zip');
    const env = { ...process.env };
    Object.assign(process.env, { DATA_DIR: t.dataDir, JWT_SECRET: 'x'.repeat(40) });
    try {
      expect(await packageCommand.run(['massacres/' + incident, out, '--withheld', 'include'], t.database)).toBe(2);
      expect(await packageCommand.run(['massacres/' + incident, out], t.database)).toBe(0);
    } finally {
      process.env = env;
    }
    expect((await verifyPackage(out, options)).checks.filter((c) => !c.ok)).toEqual([]);
    const [entry] = await t.app.db.select().from(auditLog).where(eq(auditLog.action, 'evidence-package')).orderBy(desc(auditLog.seq)).limit(1);
    expect(entry!.actorId).toBeNull();
    expect(entry!.changes.sha256?.after).toBe(sha256(readFileSync(out)));
    const bag = await unpack(out);
    unlinkSync(path.join(bag, 'data/README.html'));
    const changed = await repack(bag);
    const cli = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'verify-package', changed, '--key', path.join(bag, files(bag).find((f) => f.startsWith('data/keys/audit-key-'))!)], { cwd: path.resolve(__dirname, '..') }).then(
      () => ({ code: 0, stdout: '' }),
      (err: { code: number; stdout: string }) => err,
    );
    expect(cli.code).toBe(1);
    expect(cli.stdout).toMatch(/FAIL payload: data\/README.html is in the manifest but not in the package/);
  });

  it('records a package cut off before its end as incomplete, with no hash', async () => {
    const services = { db: t.app.db, storage: t.app.media.storage, media: t.app.media, audit: t.app.audit, config: t.app.config, capturePublicKeyPem: options.capturePublicKeyPem! };
    const started = (await startPackage(services, { category: 'massacres', id: incident, actor: { id: admin.id, role: 'admin' }, includeWithheld: false, via: 'api' }))!;
    await new Promise((resolve) => started.stream.once('data', resolve));
    started.stream.destroy();
    const result = await started.finished;
    expect(result).toMatchObject({ complete: false, sha256: null });
    const [entry] = await t.app.db.select().from(auditLog).where(eq(auditLog.action, 'evidence-package')).orderBy(desc(auditLog.seq)).limit(1);
    expect(entry!.changes.complete?.after).toBe(false);
    expect(entry!.changes.sha256?.after).toBeNull();
  });

  it('fails on a flipped byte in an original, a removed file, an added file, an altered custody entry, a swapped signature', async () => {
    const original = async (bag: string) => JSON.parse(readFileSync(path.join(bag, 'data/originals.json'), 'utf8'))[0].file as string;
    const cases: [string, (bag: string) => Promise<void> | void, RegExp, RegExp][] = [
      ['flipped byte', async (bag) => { const f = path.join(bag, await original(bag)); const b = readFileSync(f); b[b.length >> 1]! ^= 1; writeFileSync(f, b); }, /does not match its SHA-256 in the manifest/, /is not the file uploaded/],
      ['removed file', async (bag) => unlinkSync(path.join(bag, await original(bag))), /not in the package \(removed\)/, /is missing/],
      ['changed web archive', (bag) => { const f = path.join(bag, files(bag).find((x) => x.endsWith('/capture.wacz'))!); const b = readFileSync(f); b[b.length - 30]! ^= 1; writeFileSync(f, b); }, /capture\.wacz does not match its SHA-256 in the manifest/, /capture\.wacz is not the file captured/],
      ['added file', (bag) => writeFileSync(path.join(bag, 'data/extra.txt'), 'added after packaging'), /not in the manifest \(added\)/, /Payload-Oxum/],
      ['altered custody entry', (bag) => { const f = path.join(bag, 'data/custody.ndjson'); writeFileSync(f, readFileSync(f, 'utf8').replace(/"action":"create"/, '"action":"edit"')); }, /custody.ndjson does not match/, /was changed after it was written/],
      ['swapped signature', (bag) => {
        const f = path.join(bag, 'data/custody.ndjson');
        const lines = readFileSync(f, 'utf8').split('\n');
        const at = lines.findIndex((l) => l.includes('"type":"checkpoint"'));
        const c = JSON.parse(lines[at]!);
        c.signature = Buffer.from(c.signature, 'base64').reverse().toString('base64');
        lines[at] = JSON.stringify(c);
        writeFileSync(f, lines.join('\n'));
      }, /custody.ndjson does not match/, /signature does not verify/],
    ];
    for (const [name, tamper, plainFailure, rehashedFailure] of cases) {
      const bag = await unpack(zipFile);
      await tamper(bag);
      expect((await failures(await repack(bag))).join('\n'), name).toMatch(plainFailure);
      // Caught again by the checks under the manifest when its hashes are written anew for the changed files.
      rehash(bag);
      expect((await failures(await repack(bag))).join('\n'), `${name}, manifests rewritten`).toMatch(rehashedFailure);
    }
  });
});
