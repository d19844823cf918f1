import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { appReady, expect, test, type APIRequestContext } from './fixtures';

/**
 * The campaign end to end: the form's cascade over the server's directory, a refused send with errors under the
 * fields, a successful send, confirmation by the e-mailed link, and the delivered letter on /reports.
 */

interface Representative { name: string; district: string; party: string | null; email: string | null; available: boolean }
interface Country { code: string; name: string; defaultMessage: string; provinces: { name: string; representatives: Representative[] }[] }

const outboxDir = () => path.join(process.env.E2E_DATA_DIR!, 'outbox');

/** Quoted-printable as the outbox writes it: soft line breaks (=\n) and escapes such as =3D. */
const decodeQuotedPrintable = (text: string) =>
  Buffer.from(text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');

/** The path of the confirmation link in the newest e-mail to `email` (waits for the mail to be written). */
async function confirmationLinkFor(email: string): Promise<string> {
  let link: string | null = null;
  await expect
    .poll(
      () => {
        if (!existsSync(outboxDir())) return null;
        const newestFirst = readdirSync(outboxDir())
          .filter((f) => f.endsWith('.eml'))
          .map((f) => path.join(outboxDir(), f))
          .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
        for (const file of newestFirst) {
          const text = decodeQuotedPrintable(readFileSync(file, 'utf8'));
          if (!text.toLowerCase().includes(email.toLowerCase())) continue;
          const match = /\/campaign\/confirm\/[A-Za-z0-9_-]+/.exec(text);
          if (match) return (link = match[0]);
        }
        return null;
      },
      { message: `confirmation mail for ${email}`, timeout: 15_000 },
    )
    .not.toBeNull();
  return link!;
}

/** The first province of `code` with a representative who can be written to, from the server's own directory. */
async function writableRepresentative(request: APIRequestContext, code: string) {
  const res = await request.get('/api/v1.0.0/campaign/directory');
  expect(res.status()).toBe(200);
  const country = ((await res.json()) as Country[]).find((c) => c.code === code)!;
  for (const province of country.provinces) {
    const representative = province.representatives.find((r) => r.available && r.email);
    if (representative) return { country, province, representative };
  }
  throw new Error(`no writable representative in ${code}`);
}

const uniqueEmail = () => `sample-campaign-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;

test.describe('campaign', () => {
  test('cascade, field errors, send, confirm by the e-mailed link, then the letter on /reports', async ({ page, request }) => {
    const { country, province, representative } = await writableRepresentative(request, 'CA');
    const email = uniqueEmail();
    await page.goto('/');
    // The form is fetched once its section is on screen.
    await page.locator('#home-campaign-title').scrollIntoViewIfNeeded();
    const form = page.locator('form.campaign-form');
    const countrySelect = form.getByLabel('Country');
    await countrySelect.scrollIntoViewIfNeeded();
    await expect(countrySelect.locator('option', { hasText: country.name })).toHaveCount(1);

    // Cascade: country -> provinces and the default letter; province -> districts; district -> representative.
    await countrySelect.selectOption(country.code);
    await expect(form.getByLabel('Message')).toHaveValue(country.defaultMessage);
    await expect(form.getByLabel('Message')).toHaveAttribute('rows', '30');
    await form.getByLabel('Province or state').selectOption(province.name);
    const district = form.getByLabel('District');
    await expect(district.locator('option')).toHaveCount(province.representatives.length + 1);
    await district.selectOption(representative.district);
    await expect(form.getByLabel("Representative's e-mail")).toHaveValue(representative.email!);
    await expect(form.getByTestId('campaign-representative')).toContainText(representative.name);
    if (representative.party) await expect(form.getByTestId('campaign-representative')).toContainText(representative.party);

    // A refused send: errors under their fields, nothing lost.
    await form.getByLabel('Last name').fill('Sender');
    await form.getByLabel('Email').fill('not-an-email');
    await form.getByLabel('Street address').fill('1 Sample Street');
    await form.getByLabel('City').fill('Sample City');
    await form.getByLabel('Postal code').fill('S4M 9L3');
    await form.getByRole('button', { name: 'Send' }).click();
    for (const label of ['First name', 'Email']) {
      const input = form.getByLabel(label, { exact: true });
      await expect(input, label).toHaveAttribute('aria-invalid', 'true');
      const errorId = ((await input.getAttribute('aria-describedby')) ?? '').split(' ').find((id) => id.endsWith('-error'));
      expect(errorId, label).toBeTruthy();
      await expect(page.locator(`[id="${errorId}"]`), label).not.toBeEmpty();
    }
    await expect(form.getByLabel('First name')).toBeFocused();
    await expect(form.getByLabel('Email')).toHaveValue('not-an-email');
    await expect(district).toHaveValue(representative.district);
    await expect(form.getByLabel('Message')).toHaveValue(country.defaultMessage);

    // A successful send: the server's notice, in a status region.
    await form.getByLabel('First name').fill('Sample');
    await form.getByLabel('Email').fill(email);
    await form.getByRole('button', { name: 'Send' }).click();
    const notice = page.locator('.campaign [role="status"]');
    await expect(notice).toContainText('Check your e-mail to confirm your letter.');
    await expect(notice).toContainText(representative.name);
    await expect(page.getByRole('button', { name: 'Write another letter' })).toBeVisible();

    // Confirm by the e-mailed link.
    const link = await confirmationLinkFor(email);
    await page.goto(link);
    await expect(page.getByTestId('confirm-representative')).toContainText(representative.name);
    await page.getByRole('button', { name: 'Send my letter' }).click();
    await expect(page.getByRole('status')).toContainText(/your letter is confirmed and is being sent|Your letter has been sent/);
    await expect(page.getByRole('button', { name: 'Send my letter' })).toHaveCount(0);

    // The in-process job sends it; then /reports lists it.
    const title = `Letter to ${representative.name}, ${representative.district}`;
    await expect
      .poll(
        async () => {
          await page.goto('/reports');
          await page.locator('.report, .empty-state').first().waitFor();
          return page.getByRole('heading', { name: title }).count();
        },
        { message: 'the delivered letter on /reports', timeout: 30_000, intervals: [500, 1000, 2000] },
      )
      .toBeGreaterThan(0);
    const report = page.locator('article.report', { has: page.getByRole('heading', { name: title }) });
    await expect(report).toContainText('Reported on');
    await expect(report.locator('time')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4} \d{2}:\d{2} (AM|PM)$/);
    await expect(report.locator('.report-message')).toContainText(country.defaultMessage.split('\n')[0]!);
    // Sender details never appear publicly.
    await expect(page.getByText(email)).toHaveCount(0);
  });

  test('at 375px: the form and its directory load only once the form is on screen, the form fits, representatives without an e-mail cannot be chosen', async ({ page, request }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    const res = await request.get('/api/v1.0.0/campaign/directory');
    const countries = (await res.json()) as Country[];
    let target: { country: Country; province: string; representative: Representative } | null = null;
    for (const country of countries)
      for (const province of country.provinces) {
        const representative = province.representatives.find((r) => !r.available);
        if (representative && !target) target = { country, province: province.name, representative };
      }
    expect(target, 'the shipped directory lists representatives without an e-mail').toBeTruthy();
    const directoryCalls: string[] = [];
    const formScripts: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/campaign/directory')) directoryCalls.push(r.url());
      if (/\/assets\/CampaignForm-[^/]+\.js$/.test(r.url())) formScripts.push(r.url());
    });
    await page.goto('/');
    await appReady(page);
    await page.waitForLoadState('networkidle');
    // The section starts below the screen: neither the form's code nor the directory is fetched.
    const section = page.locator('section.home-campaign');
    expect(await section.evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThan(800);
    await expect(section.getByRole('status')).toHaveText('Loading...');
    const form = page.locator('form.campaign-form');
    await expect(form).toHaveCount(0);
    expect(formScripts).toHaveLength(0);
    expect(directoryCalls).toHaveLength(0);
    // Scrolled to, the section fetches the form, which fetches the directory once.
    await page.locator('#home-campaign-title').scrollIntoViewIfNeeded();
    await expect(form.getByLabel('Country')).toBeAttached();
    await expect.poll(() => directoryCalls.length).toBe(1);
    expect(formScripts).toHaveLength(1);
    await form.getByLabel('Country').selectOption(target!.country.code);
    await form.getByLabel('Province or state').selectOption(target!.province);
    const option = form.getByLabel('District').locator('option', { hasText: target!.representative.name });
    await expect(option).toBeDisabled();
    await expect(form.locator('#campaign-unavailable')).toContainText(target!.representative.name);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  test('at 375px: the first Tab loads the form, so a keyboard visitor does not tab past the section while it is empty', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/');
    await appReady(page);
    await page.waitForLoadState('networkidle');
    const section = page.locator('section.home-campaign');
    const form = page.locator('form.campaign-form');
    await expect(form).toHaveCount(0);
    await page.keyboard.press('Tab');
    // Loaded at once, while the section is still below the screen (nothing has scrolled it into view).
    await expect(form.getByLabel('Country')).toBeAttached();
    expect(await section.evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThan(800);
    // Tabbing on reaches the form's first field.
    for (let presses = 0; presses < 80; presses++) {
      if (await form.getByLabel('Country').evaluate((el) => el === document.activeElement)) break;
      await page.keyboard.press('Tab');
    }
    await expect(form.getByLabel('Country')).toBeFocused();
  });

  test('an unknown confirmation link says so', async ({ page }) => {
    await page.goto('/campaign/confirm/sample-unknown-token');
    await expect(page.getByRole('status')).toContainText('This link is not valid, or the letter was deleted.');
    await expect(page.getByRole('button', { name: 'Send my letter' })).toHaveCount(0);
  });
});
