import { test, expect } from './fixtures';
import { createAdmin, samplePngs, useToken } from './editor-helpers';

/**
 * Issue 56: a witness sends a testimony with the browser's scripts off (the Tor Browser's safest setting) and with
 * them on (proof of work, progress); a reviewer reads it in the browser only with the right passphrase and asks a
 * question, which the witness reads with the receipt, scripts off.
 */

const PASSPHRASE = 'sample reviewer passphrase (test only)';

test.describe.serial('testimony', () => {
  let admin: Awaited<ReturnType<typeof createAdmin>>;
  let receipt = '';

  test.beforeAll(async ({ request }) => {
    admin = await createAdmin(request, 'testimony-reviewer');
    const key = await request.get('/api/v1.0.0/testimonies/key', { headers: { authorization: `Bearer ${admin.token}` } });
    if (!((await key.json()) as { exists: boolean }).exists) {
      const res = await request.post('/api/v1.0.0/testimonies/key', { data: { passphrase: PASSPHRASE }, headers: { authorization: `Bearer ${admin.token}` } });
      expect(res.status(), await res.text()).toBe(201);
    }
  });

  test("the Amharic form shows its Ge'ez in Noto Sans Ethiopic where the system has no Ethiopic font", async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const fonts: string[] = [];
    page.on('request', (req) => {
      if (/\.woff2$/.test(new URL(req.url()).pathname)) fonts.push(new URL(req.url()).pathname);
    });
    await page.goto('/testify?lang=am');
    await expect(page.locator('h1')).toHaveText(/[\u1200-\u137f]/);
    await expect.poll(() => page.evaluate(() => document.fonts.check('16px "Noto Sans Ethiopic"', 'ምስክርነት'))).toBe(true);
    const installed = await page.evaluate(() => new FontFace('installed-ethiopic-probe', 'local("Noto Sans Ethiopic")').load().then(() => true, () => false));
    // A device with the font uses its own; the others get the build's whole face, once.
    expect(fonts.filter((url) => /noto-sans-ethiopic-ethiopic-400/.test(url))).toHaveLength(installed ? 0 : 1);
    const family = await page.locator('h1').evaluate((h) => getComputedStyle(h).fontFamily);
    // First in the list: after system-ui, Chrome drew the bold headings' Ge'ez with its own fallback, as boxes.
    expect(family).toMatch(/^"?Noto Sans Ethiopic"?,/);
    await context.close();
  });

  test('without JavaScript: the form sends a testimony with a file and shows the receipt once', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/testify');
    await page.getByLabel('What happened').fill('Sample no-script testimony E2E-MARKER-NOJS');
    await page.getByLabel('When (a date, or “about …”)').fill('about 2021');
    await page.getByLabel('Region').selectOption('amhara');
    await page.getByLabel('It may be published after review, without my identity').check();
    const [png] = await samplePngs(1);
    await page.getByLabel('Files: photos, video, audio, PDF').setInputFiles(png!);
    await page.getByRole('button', { name: 'Send the testimony' }).click();
    await expect(page.getByRole('heading', { name: 'Your testimony was received' })).toBeVisible();
    receipt = (await page.locator('#receipt').innerText()).replace(/\s/g, '');
    expect(receipt).toMatch(/^\d{16}$/);
    await context.close();
  });

  test('with JavaScript: the proof of work is solved and the receipt shown', async ({ browser }) => {
    // A page of its own context: the suite's page waits for the web app, and /testify is a page of the server's own.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto('/testify');
    await page.getByLabel('What happened').fill('Sample scripted testimony E2E-MARKER-JS');
    await page.getByRole('button', { name: 'Send the testimony' }).click();
    await expect(page.getByRole('heading', { name: 'Your testimony was received' })).toBeVisible({ timeout: 30_000 });
    await expect(page.locator('#receipt')).toHaveText(/^\d{4} \d{4} \d{4} \d{4}$/);
    await context.close();
  });

  test('a reviewer reads it in the browser with the passphrase, not with a wrong one, and asks a question', async ({ page }) => {
    await useToken(page, admin.token);
    await page.goto('/admin/testimonies');
    await page.getByLabel('Your passphrase').fill('not the passphrase at all');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await expect(page.getByRole('alert')).toContainText('does not unlock');
    await expect(page.getByText('E2E-MARKER-NOJS')).toHaveCount(0);
    await page.getByLabel('Your passphrase').fill(PASSPHRASE);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await expect(page.getByRole('button', { name: 'Lock (forget the key now)' })).toBeVisible();
    const items = page.getByTestId('testimony-item');
    await expect(items.filter({ hasText: 'Unverified' }).first()).toBeVisible();
    await items.filter({ hasText: 'Unverified' }).first().getByRole('button').first().click();
    await expect(page.getByTestId('testimony-statement')).toContainText('E2E-MARKER-NOJS');
    await page.getByLabel('Write to the witness (they read it with their receipt)').fill('Sample question from the reviewer');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByText('Sample question from the reviewer')).toBeVisible();
  });

  test('a reviewer makes a record from it: the add form starts with the witness withheld, and the testimony is marked used', async ({ page }) => {
    await useToken(page, admin.token);
    await page.goto('/admin/testimonies');
    const item = page.getByTestId('testimony-item').filter({ hasText: 'Unverified' }).first();
    await item.getByRole('button').first().click();
    await expect(page.getByTestId('testimony-statement')).toContainText('E2E-MARKER-NOJS');
    await page.getByLabel('Category of the record').selectOption('victims');
    await page.getByRole('button', { name: 'Create a record from this' }).click();
    await expect(page).toHaveURL(/\/dashboard\?category=victims&fromTestimony=1$/);
    await page.getByLabel('Title', { exact: true }).fill('Sample victim from a test testimony');
    await page.getByLabel('Full name', { exact: true }).fill('Sample Person Testimony');
    await page.getByLabel('Description', { exact: true }).fill('Test data, not a real person.');
    const created = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/v1.0.0/victims'));
    const used = page.waitForResponse((r) => r.request().method() === 'PUT' && /\/testimonies\/[^/]+\/status$/.test(r.url()));
    await page.getByRole('button', { name: 'Submit' }).click();
    const record = (await (await created).json()) as { _id: string; sources: { kind: string; withheld?: boolean; note?: string }[] };
    expect(record.sources).toEqual([expect.objectContaining({ kind: 'witness', withheld: true, note: expect.stringContaining('E2E-MARKER-NOJS') })]);
    expect((await used).status()).toBe(200);
    await expect(page).toHaveURL(/\/victims$/);
    // The witness's words are not what the public reads of the record.
    const anonymous = await page.request.get(`/api/v1.0.0/victims/${record._id}`);
    expect(await anonymous.text()).not.toContain('E2E-MARKER-NOJS');
    await page.goto('/admin/testimonies');
    await page.getByLabel('Show').selectOption('used');
    await expect(page.getByTestId('testimony-item').filter({ hasText: 'Used in a record' }).first()).toBeVisible();
  });

  test('without JavaScript: the witness reads the question with the receipt and answers', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/testify/receipt');
    await page.getByLabel('Receipt (16 digits)').fill(receipt);
    await page.getByRole('button', { name: 'Open' }).click();
    await expect(page.getByText('Sample question from the reviewer')).toBeVisible();
    await page.getByLabel('Your answer').fill('Sample answer from the witness');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByText('You (your answer is kept locked')).toBeVisible();
    await context.close();
  });
});
