import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';

/**
 * Offline reading (issue 58 item 1): the service worker keeps the public pages a reader opened; with the network off
 * an opened page opens again, marked with the day it was saved, and an unopened one gives the offline page listing
 * what is saved. A signed-in visit leaves nothing private in the caches, and a new version of the site's files is
 * taken up whole.
 */
const SUPER = { email: 'e2e-super@example.test', password: 'e2e super password (test only)' };
const shots = process.env.SCREENSHOT_DIR;

async function controlled(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** Every cache's entries: their addresses and bodies, as the browser stores them. */
async function cacheContents(page: Page) {
  return page.evaluate(async () => {
    const out: { cache: string; url: string; body: string }[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        const response = await cache.match(request);
        const type = response?.headers.get('content-type') ?? '';
        out.push({ cache: name, url: request.url, body: /text|json/.test(type) ? ((await response?.text()) ?? '') : '' });
      }
    }
    return out;
  });
}

async function firstRecordOf(page: Page, list: string): Promise<string> {
  await page.goto(list);
  const href = await page.locator(`main a[href^="${list}/"]`).first().getAttribute('href');
  return href!;
}

test('an opened page opens offline with the day it was saved; an unopened one gives the offline page', async ({ page, context }) => {
  await page.goto('/');
  await controlled(page);
  const record = await firstRecordOf(page, '/massacres');
  await page.goto(record);
  const title = (await page.locator('main h1').first().textContent())!;
  const unopened = await firstRecordOf(page, '/victims').then(() => '/orphans/00000000-0000-4000-8000-000000000000');

  await context.setOffline(true);
  await page.goto(record);
  await expect(page.locator('main h1').first()).toHaveText(title);
  await expect(page.getByTestId('offline-saved')).toContainText(/Saved on .*You are offline/);
  // The page's styles came from the device too.
  expect(await page.locator('header.site-header').evaluate((el) => getComputedStyle(el).display)).not.toBe('block');
  if (shots) await page.screenshot({ path: path.join(shots, 'offline-saved.png') });

  await page.goto(unopened);
  const offline = page.getByTestId('offline-page');
  await expect(offline.getByRole('heading', { level: 1 })).toHaveText('You are offline');
  await expect(offline.getByRole('heading', { name: 'Massacres' })).toBeVisible();
  await expect(offline.getByRole('link', { name: title.trim() }).first()).toBeVisible();
  if (shots) await page.screenshot({ path: path.join(shots, 'offline-page.png'), fullPage: true });
  await offline.getByRole('link', { name: title.trim() }).first().click();
  await expect(page.getByTestId('offline-saved')).toBeVisible();
  await context.setOffline(false);
});

test('a signed-in visit stores nothing private, and signing in and out clears what was kept', async ({ page, request }) => {
  await page.goto('/about');
  await controlled(page);
  await page.goto('/massacres');
  expect((await cacheContents(page)).some((e) => e.url.endsWith('/massacres'))).toBe(true);

  // A private record, to be read while signed in.
  const signin = await request.post('/api/users/signin', { data: SUPER });
  const token = ((await signin.json()) as { token: string }).token;
  const created = await request.post('/api/v1.0.0/massacres', {
    headers: { authorization: `Bearer ${token}` },
    data: { title: 'Sample private offline massacre (test)', description: 'Test data, private.' },
  });
  const id = ((await created.json()) as { _id: string })._id;
  await request.put(`/api/v1.0.0/massacres/${id}/access`, { headers: { authorization: `Bearer ${token}` } });

  await page.goto('/signin');
  await page.getByLabel('Email').fill(SUPER.email);
  await page.getByLabel('Password').fill(SUPER.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/massacres/${id}`);
  await expect(page.locator('main h1').first()).toHaveText('Sample private offline massacre (test)');
  for (const address of ['/admin', '/admin/users', '/massacres', '/']) await page.goto(address);
  await page.waitForTimeout(500);

  const kept = await cacheContents(page);
  expect(kept.filter((e) => /offline-(pages|images)/.test(e.cache))).toEqual([]);
  // (The shell's hashed styles and scripts are the same public files for everyone, the admin screens' among them.)
  expect(kept.filter((e) => /^\/(api|admin|dashboard|signin|media\/private)\b/.test(new URL(e.url).pathname))).toEqual([]);
  expect(kept.filter((e) => e.body.includes('Sample private offline massacre') || e.body.includes(SUPER.email))).toEqual([]);

  // Signed out: the device keeps public pages again.
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/signin$/);
  await page.waitForTimeout(300);
  await page.goto('/about');
  await expect.poll(async () => (await cacheContents(page)).some((e) => e.url.endsWith('/about') && e.cache.startsWith('offline-pages'))).toBe(true);
});

/** The built worker as the site serves it (with its pre-compressed copies), replaced for one test and put back. */
const SW_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/dist/sw.js');
function serveWorker(code: Buffer) {
  writeFileSync(SW_FILE, code);
  writeFileSync(`${SW_FILE}.br`, brotliCompressSync(code));
  writeFileSync(`${SW_FILE}.gz`, gzipSync(code));
}

test('a new version of the site files is taken up whole: the old one serves until it is replaced, then nothing old is mixed in', async ({ page, context }) => {
  await page.goto('/about');
  await controlled(page);
  const original = readFileSync(SW_FILE);
  const cachedRevisions = async (p: Page) =>
    p.evaluate(async () => {
      const precache = (await caches.keys()).find((n) => n.includes('precache'))!;
      return (await (await caches.open(precache)).keys()).map((r) => r.url).filter((u) => u.includes('favicon'));
    });
  const waiting = (p: Page) => p.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting));
  try {
    // The next version: the same shell with the icon changed (a new revision), and so a new worker script.
    serveWorker(Buffer.from(original.toString('utf8').replace(/"revision":"[0-9a-f]{16}"/, '"revision":"next-version"')));
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
    await expect.poll(() => waiting(page)).toBe(true);
    // Installed beside the old one; while this tab is open it stays on the version it started with, whose files are all there.
    await page.reload();
    const during = await cachedRevisions(page);
    expect(during.some((u) => u.includes('next-version'))).toBe(true);
    expect(during.some((u) => !u.includes('next-version'))).toBe(true);

    // Every tab closed, the new version takes over and the old files are removed.
    await page.close();
    const next = await context.newPage();
    await next.goto('/about');
    await expect.poll(() => waiting(next)).toBe(false);
    await expect.poll(async () => (await cachedRevisions(next)).every((u) => u.includes('next-version'))).toBe(true);
    await next.locator('main h1').first().waitFor();
    expect(await next.locator('header.site-header').evaluate((el) => getComputedStyle(el).display)).not.toBe('block');
  } finally {
    serveWorker(original);
  }
});
