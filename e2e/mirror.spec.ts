import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';

/**
 * The static mirror of the built site (issue 58 item 2), served by Python's static server and opened from file://,
 * in Chromium: the home page with its styles, a record reached by its links, and the search page from its prebuilt
 * index. Written with the real renderer by `npm run admin -- mirror`, on the suite's sample data.
 */
const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** A port of this suite's own range, beside the site's (E2E_PORT). */
const STATIC_PORT = Number(process.env.E2E_PORT ?? 4173) + 11;
const shots = process.env.SCREENSHOT_DIR;

let out: string;
let server: ChildProcess | null = null;

async function admin(...args: string[]) {
  return run(process.execPath, ['scripts/server-source.mjs', 'src/cli.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, NODE_ENV: 'development', PORT: String(process.env.E2E_PORT ?? 4173), INIT_CWD: ROOT },
    timeout: 120_000,
  });
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  out = mkdtempSync(path.join(os.tmpdir(), 'e2e-mirror-'));
  const written = await admin('mirror', out);
  expect(written.stdout).toMatch(/Mirror written to .* pages/);
  // Checked against the key the live site publishes, as a reader would.
  const key = await request.get('/.well-known/mirror-key');
  expect(key.status()).toBe(200);
  const keyFile = path.join(out, '..', `${path.basename(out)}-key.pem`);
  writeFileSync(keyFile, await key.text());
  const verified = await admin('verify-mirror', out, '--key', keyFile);
  expect(verified.stdout).toMatch(/every one of its \d+ files and the signature hold/);
  server = spawn('python3', ['-m', 'http.server', String(STATIC_PORT), '--bind', '127.0.0.1', '--directory', out], { stdio: 'ignore' });
  for (let i = 0; i < 50; i++) {
    const up = await fetch(`http://127.0.0.1:${STATIC_PORT}/index.html`).then((r) => r.ok, () => false);
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

test.afterAll(async () => {
  server?.kill();
  if (out) rmSync(out, { recursive: true, force: true });
});

const firstMassacre = () => readdirSync(path.join(out, 'massacres')).find((name) => /^[0-9a-f-]{36}$/.test(name))!;

for (const where of ['http', 'file'] as const) {
  test(`the mirror served by ${where === 'http' ? "Python's static server" : 'file://'} shows the home page and a record`, async ({ page }) => {
    const base = where === 'http' ? `http://127.0.0.1:${STATIC_PORT}/` : `file://${out}/`;
    const failed: string[] = [];
    // A file the mirror lacks fails as not found; a load the next click cut short (a lazy image) is only aborted.
    page.on('requestfailed', (r) => {
      if (r.failure()?.errorText !== 'net::ERR_ABORTED') failed.push(`${r.url()} ${r.failure()?.errorText}`);
    });
    await page.goto(`${base}index.html`);
    await expect(page.locator('header .brand')).toBeVisible();
    await expect(page.locator('main h1, main h2').first()).toBeVisible();
    // Styled: the site's stylesheet loaded (the header is laid out as a flex row, not the browser's default block).
    expect(await page.locator('header.site-header').evaluate((el) => getComputedStyle(el).display)).not.toBe('block');
    if (shots) await page.screenshot({ path: path.join(shots, `mirror-${where}-home.png`), fullPage: true });

    await page.locator('a[href="massacres/index.html"]:visible').first().click();
    await expect(page).toHaveURL(/massacres\/index\.html$/);
    const id = firstMassacre();
    await page.locator(`a[href="${id}/index.html"]:visible`).first().click();
    await expect(page).toHaveURL(new RegExp(`massacres/${id}/index\\.html$`));
    await expect(page.locator('main h1').first()).toContainText('Sample massacre');
    const images = page.locator('main img');
    if ((await images.count()) > 0) expect(await images.first().evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    if (shots) await page.screenshot({ path: path.join(shots, `mirror-${where}-record.png`), fullPage: true });
    expect(failed.filter((url) => url.startsWith(base))).toEqual([]);
  });
}

test("the mirror's search page finds sample records from its index, without a server behind it", async ({ page }) => {
  await page.goto(`file://${out}/search/index.html?q=massacre`);
  await expect(page.locator('#mirror-search-status')).toContainText(/records found/);
  const hit = page.locator('#mirror-search-results a').first();
  await expect(hit).toContainText(/Sample/);
  await hit.click();
  await expect(page.locator('main h1').first()).toContainText('Sample');
  if (shots) await page.screenshot({ path: path.join(shots, 'mirror-search.png') });
});

test('the known-mirrors page lists copies with their fingerprints; an admin adds and removes one', async ({ page, request }) => {
  const SUPER = { email: 'e2e-super@example.test', password: 'e2e super password (test only)' };
  const signin = await request.post('/api/users/signin', { data: SUPER });
  const token = ((await signin.json()) as { token: string }).token;
  // Names of this attempt's own: a retry finds the copies an earlier attempt listed still there.
  const run = Math.random().toString(36).slice(2, 8);
  const listedName = `Sample Test Library ${run} (not real)`;
  const addedName = `Sample Second Archive ${run} (test)`;
  const listed = await request.post('/api/v1.0.0/mirrors', {
    headers: { authorization: `Bearer ${token}` },
    data: { name: listedName, url: 'https://mirror.example.org/archive/', fingerprint: 'ab'.repeat(32), note: 'Test data: nightly rsync.' },
  });
  expect(listed.status()).toBe(201);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/mirrors');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Copies of the archive');
    await expect(page.getByTestId('site-key-fingerprint')).toHaveText(/^[0-9a-f]{64}$/);
    await expect(page.getByRole('heading', { name: listedName })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    if (shots) await page.screenshot({ path: path.join(shots, `mirrors-${width}.png`), fullPage: true });
  }

  await page.goto('/signin');
  await page.getByLabel('Email').fill(SUPER.email);
  await page.getByLabel('Password').fill(SUPER.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/mirrors');
  await page.getByLabel('Kept by', { exact: true }).fill(addedName);
  await page.getByLabel('Address of the copy').fill('not an address');
  await page.getByLabel('Key fingerprint').fill('cd'.repeat(32));
  await page.getByRole('button', { name: 'Add to the list' }).click();
  await expect(page.getByText(/An address starting with https:\/\//)).toBeVisible();
  await page.getByLabel('Address of the copy').fill('ipfs://bafytestcid');
  await page.getByRole('button', { name: 'Add to the list' }).click();
  await expect(page.getByRole('heading', { name: addedName })).toBeVisible();
  if (shots) await page.screenshot({ path: path.join(shots, 'mirrors-admin.png'), fullPage: true });
  for (const name of [addedName, listedName]) {
    await page.getByRole('button', { name: `Remove the copy kept by ${name}` }).click();
    await expect(page.getByRole('heading', { name })).toHaveCount(0);
  }
});
