import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ethiopicFaceRule } from '../src/modules/testimony/page';
import { createTestApp, createUser, call, type TestApp } from './helpers';

const ONION = `${'a'.repeat(56)}.onion`;

describe('the witness pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ONION_ADDRESS: ONION });
    const admin = await createUser(t.app, 'admin');
    await call(t.app, { method: 'POST', url: '/api/v1.0.0/testimonies/key', headers: admin.auth, payload: { passphrase: 'sample reviewer passphrase' } });
  });
  afterAll(() => t.close());

  it('/testify is a form that works without script, within 30 KB brotli with its script, in English and Amharic', async () => {
    const en = await t.app.inject({ method: 'GET', url: '/testify' });
    const am = await t.app.inject({ method: 'GET', url: '/testify?lang=am' });
    const script = await t.app.inject({ method: 'GET', url: '/testify.js' });
    expect(en.statusCode).toBe(200);
    expect(en.body).toContain('enctype="multipart/form-data"');
    expect(en.body).toContain('name="nojs" value="1"');
    for (const name of ['statement', 'happenedOn', 'region', 'zone', 'woreda', 'place', 'people', 'contact', 'consent', 'files']) expect(en.body).toContain(`name="${name}"`);
    expect(am.body).toContain('lang="am"');
    expect(am.body).toContain('ምስክርነት ይላኩ');
    const weight = brotliCompressSync(Buffer.from(en.body)).length + brotliCompressSync(Buffer.from(script.body)).length;
    expect(weight).toBeLessThan(30 * 1024);
    expect(en.headers['onion-location']).toBe(`http://${ONION}/testify`);
    expect(en.body).toContain(ONION);
  });

  it('the receipt page is a form too, and a wrong receipt answers a page with the error', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/testify/receipt' });
    expect(page.body).toContain('name="receipt"');
    const boundary = '----sample';
    const payload = `--${boundary}\r\ncontent-disposition: form-data; name="receipt"\r\n\r\n1234\r\n--${boundary}--\r\n`;
    const res = await t.app.inject({ method: 'POST', url: '/api/v1.0.0/testimonies/receipt', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, accept: 'text/html' } });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('A receipt is 16 digits');
  });

  it("declares the web build's Ethiopic face when there is one, and none without a build", () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'testify-face-'));
    try {
      expect(ethiopicFaceRule(dist)).toBe('');
      mkdirSync(path.join(dist, 'assets'));
      writeFileSync(path.join(dist, 'assets', 'noto-sans-ethiopic-ethiopic-400-normal-AbC12_-x.woff2'), 'test face');
      writeFileSync(path.join(dist, 'assets', 'ethiopic-interface-en-1234-AbC.woff2'), 'test subset');
      const rule = ethiopicFaceRule(dist);
      expect(rule).toMatch(/^@font-face\{font-family:'Noto Sans Ethiopic';/);
      expect(rule).toContain("local('Noto Sans Ethiopic'),local('NotoSansEthiopic-Regular'),url('/assets/noto-sans-ethiopic-ethiopic-400-normal-AbC12_-x.woff2') format('woff2')");
      expect(rule).toContain('unicode-range:U+030E,U+1200-1399,');
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('sends no Onion-Location on API answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1.0.0/testimonies/challenge' });
    expect(res.headers['onion-location']).toBeUndefined();
  });
});

describe('npm run admin -- intake-key create', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses bad arguments and accounts that do not review, and makes the key for a reviewer once', async () => {
    const { intakeKeyCommand } = await import('../src/modules/testimony/cli');
    const errors: string[] = [];
    const printed: string[] = [];
    const error = console.error;
    const log = console.log;
    console.error = (m: string) => void errors.push(m);
    console.log = (m: string) => void printed.push(m);
    try {
      expect(await intakeKeyCommand.prepare(['make', 'x@example.test'])).toBe(2);
      const contributor = await createUser(t.app, 'contributor');
      const admin = await createUser(t.app, 'admin');
      expect(await intakeKeyCommand.run([contributor.email, 'sample passphrase long', ''], t.database)).toBe(2);
      expect(await intakeKeyCommand.run([admin.email, 'sample passphrase long', ''], t.database)).toBe(0);
      expect(printed.at(-1)).toMatch(/^[0-9a-f]{8}(-[0-9a-f]{8}){7}$/);
      expect(await intakeKeyCommand.run([admin.email, 'sample passphrase long', ''], t.database)).toBe(2);
      const unlocked = await call(t.app, { method: 'POST', url: '/api/v1.0.0/testimonies/unlock', headers: admin.auth, payload: { passphrase: 'sample passphrase long' } });
      expect(unlocked.status).toBe(200);
      const recovered = await call(t.app, { method: 'POST', url: '/api/v1.0.0/testimonies/unlock', headers: admin.auth, payload: { passphrase: 'a new sample passphrase', recoveryKey: printed.at(-1) } });
      expect(recovered.status).toBe(200);
    } finally {
      console.error = error;
      console.log = log;
    }
  });
});
