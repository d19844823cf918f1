import { apiCreate, apiSignIn, createAdmin, SUPER, useToken } from './editor-helpers';
import { appReady, expect, test, type Page } from './fixtures';

/**
 * What a visitor and an editor meet first (issue 38): every list within two taps, the admin hub, the representative
 * search, record addresses that say what is wrong, the header's contact, the home accent, the Ethiopic font, and the
 * frame the server draws for the editors' screens. Records made here are labelled test data.
 */

/** Every list and tool of the site. */
const EVERY_LIST = ['/massacres', '/victims', '/displacements', '/missings', '/orphans', '/events', '/images', '/videos', '/links', '/educations', '/reports', '/search', '/statistics', '/map', '/export'];

/** The links a visitor can tap now, by address (only those on screen). */
async function visibleLinks(page: Page): Promise<Set<string>> {
  const hrefs = await page.locator('a[href^="/"]').evaluateAll((links) =>
    links
      .filter((a) => {
        const box = a.getBoundingClientRect();
        const style = getComputedStyle(a);
        return box.width > 0 && box.height > 0 && style.visibility !== 'hidden';
      })
      .map((a) => new URL((a as HTMLAnchorElement).href).pathname),
  );
  return new Set(hrefs);
}

test.describe('reaching things', () => {
  test('at 1280 px every list is one tap from home (a tile or the links below them) or two (Browse)', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/');
    const oneTap = await visibleLinks(page);
    await page.getByRole('button', { name: /Browse/ }).click();
    const twoTaps = await visibleLinks(page);
    for (const list of EVERY_LIST) expect(oneTap.has(list) || twoTaps.has(list), list).toBe(true);
    // Browse from any page, not only home.
    await page.goto('/victims');
    await page.getByRole('button', { name: /Browse/ }).click();
    const fromList = await visibleLinks(page);
    for (const list of EVERY_LIST) expect(fromList.has(list), list).toBe(true);
  });

  test('at 375 px every list is two taps away: the menu, then the list', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/massacres');
    await page.getByRole('button', { name: 'Menu' }).click();
    const inMenu = await visibleLinks(page);
    for (const list of EVERY_LIST) expect(inMenu.has(list), list).toBe(true);
    await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Orphans' }).click();
    await expect(page).toHaveURL(/\/orphans$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Orphans \d+$/);
  });

  test('the phone menu closes after switching language', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/about');
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(page.locator('#site-menu')).toBeInViewport();
    await page.getByRole('combobox', { name: 'Language' }).selectOption('am');
    await expect(page.getByRole('button', { name: 'ማውጫ' })).toHaveAttribute('aria-expanded', 'false');
    await expect(page.locator('#site-menu')).not.toBeInViewport();
    await page.evaluate(() => localStorage.setItem('lang', 'en'));
  });

  test('the header carries the contact address and the social link; page metadata an Organization', async ({ page, request }) => {
    await page.goto('/victims');
    await expect(page.getByTestId('header-contact')).toHaveAttribute('href', /^mailto:.+@.+/);
    await expect(page.getByTestId('header-social')).toHaveAttribute('href', /^https?:\/\//);
    const html = await (await request.get('/victims')).text();
    const organization = JSON.parse(/<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)![1]!) as Record<string, unknown>;
    expect(organization).toMatchObject({ '@type': 'Organization', email: expect.stringContaining('@'), sameAs: [expect.stringMatching(/^https?:/)] });
  });

  test('the home page keeps the accent colour the server chose once the app has started', async ({ page }) => {
    for (let visit = 0; visit < 6; visit++) {
      const response = await page.goto(`/?visit=${visit}`);
      const served = /data-accent="(accent-\w+)"/.exec(await response!.text())?.[1];
      expect(served, 'the server draws an accent').toMatch(/^accent-(red|green|gold)$/);
      // A moment for any late redraw.
      await page.waitForTimeout(300);
      await expect(page.getByTestId('purpose')).toHaveClass(new RegExp(`\\b${served}\\b`));
    }
  });

  test("Ge'ez shows in the Noto Sans Ethiopic font in the English interface, which pages without Ge'ez never download", async ({ page }) => {
    const fonts: string[] = [];
    page.on('request', (req) => {
      if (/\.woff2?$/.test(new URL(req.url()).pathname)) fonts.push(new URL(req.url()).pathname);
    });
    await page.goto('/signin');
    await page.waitForTimeout(500);
    expect(fonts).toEqual([]);
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect.poll(() => page.evaluate(() => document.fonts.check('16px "Noto Sans Ethiopic"', 'አማርኛ'))).toBe(true);
    // A system that has the font (Android ships it) uses its own: the site's copies are only for the others.
    const faces = await page.evaluate(() =>
      [...document.styleSheets]
        .flatMap((sheet) => [...sheet.cssRules])
        .filter((rule): rule is CSSFontFaceRule => rule instanceof CSSFontFaceRule)
        .map((rule) => rule.style.getPropertyValue('src')),
    );
    expect(faces).toHaveLength(3);
    for (const face of faces) expect(face).toMatch(/^local\("?Noto Sans Ethiopic"?\), local\("?NotoSansEthiopic-Regular"?\), url\(/);
    const installed = await page.evaluate(() => new FontFace('installed-ethiopic-probe', 'local("Noto Sans Ethiopic")').load().then(() => true, () => false));
    // The English interface's few letters come from their own small face; the whole face waits for record text.
    await expect.poll(() => fonts.some((url) => /ethiopic-interface-en/.test(url))).toBe(!installed);
    expect(fonts.filter((url) => /noto-sans-ethiopic-ethiopic-400/.test(url))).toEqual([]);
  });

  test("a record's Ge'ez letters that the interface never uses bring the whole face, on that record's page", async ({ page, request }) => {
    const token = await apiSignIn(request, SUPER.email, SUPER.password);
    // Ethiopic Extended letters (U+2D80...): no interface string uses them, so only the whole face has them.
    const record = await apiCreate(request, token, 'victims', { title: 'Sample rare letters ⶀⶁⶂ (test data)', fullName: 'Sample ⶀⶁⶂ', description: 'Test data.' });
    const fonts: string[] = [];
    page.on('request', (req) => {
      if (/\.woff2?$/.test(new URL(req.url()).pathname)) fonts.push(new URL(req.url()).pathname);
    });
    await page.goto(`/victims/${record._id}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('ⶀⶁⶂ');
    await expect.poll(() => page.evaluate(() => document.fonts.check('16px "Noto Sans Ethiopic"', 'ⶀ'))).toBe(true);
    const installed = await page.evaluate(() => new FontFace('installed-ethiopic-probe', 'local("Noto Sans Ethiopic")').load().then(() => true, () => false));
    await expect.poll(() => fonts.some((url) => /noto-sans-ethiopic-ethiopic-400/.test(url))).toBe(!installed);
  });
});

test.describe('record addresses', () => {
  test('a bad or unknown record address is a 404 page with a way back to its list', async ({ page, request }) => {
    for (const address of ['/victims/not-a-record', '/victims/00000000-0000-4000-8000-000000000000']) {
      expect((await request.get(address)).status(), address).toBe(404);
      await page.goto(address);
      await expect(page).toHaveURL(new RegExp(`${address}$`));
      await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
      await page.getByRole('link', { name: 'Back to Victims' }).click();
      await expect(page).toHaveURL(/\/victims$/);
    }
  });

  test('a private or unknown massacre address says so at once, from the server, alike; the app goes on to the list', async ({ page, request, browser }) => {
    const superToken = await apiSignIn(request, SUPER.email, SUPER.password);
    const hidden = await apiCreate(request, superToken, 'massacres', { title: 'Test private massacre for the notice (test data)', description: 'Test data.' });
    const access = await request.put(`/api/v1.0.0/massacres/${hidden._id}/access`, { headers: { authorization: `Bearer ${superToken}` } });
    expect(access.status()).toBe(200);
    const addresses = [`/massacres/${hidden._id}`, '/massacres/00000000-0000-4000-8000-000000000000'];
    const answers: string[] = [];
    for (const address of addresses) {
      const answer = await request.get(address);
      expect(answer.status(), address).toBe(404);
      const main = /<main[^>]*>([\s\S]*)<\/main>/.exec(await answer.text())![1]!;
      expect(main, address).toContain('That record is not public, or its address is wrong.');
      expect(main, address).not.toContain('Loading...');
      answers.push(main);
    }
    // The same words for a private record and an unknown one: the page does not tell that a record exists.
    expect(answers[0]).toBe(answers[1]);

    // Without JavaScript: the notice and the way to the list.
    const context = await browser.newContext({ javaScriptEnabled: false });
    const reader = await context.newPage();
    await reader.goto(addresses[0]!);
    await expect(reader.getByText('That record is not public, or its address is wrong.', { exact: false })).toBeVisible();
    await reader.getByRole('link', { name: 'Back to Massacres' }).click();
    await expect(reader).toHaveURL(/\/massacres$/);
    await context.close();

    // A reader whose page the app draws (here in Amharic) is sent on to the list, which says why.
    await page.addInitScript(() => window.localStorage.setItem('lang', 'am'));
    await page.goto(addresses[0]!);
    await expect(page).toHaveURL(/\/massacres$/);
    await expect(page.getByTestId('route-notice')).toHaveText(/ያ መዝገብ ይፋዊ አይደለም/);
    await page.evaluate(() => localStorage.setItem('lang', 'en'));
  });

  test("a record's title of five words or more is shown on its page", async ({ page, request }) => {
    const superToken = await apiSignIn(request, SUPER.email, SUPER.password);
    const title = 'Test victim record with a title of nine words';
    const record = await apiCreate(request, superToken, 'victims', { title, description: 'Test data.' });
    await page.goto(`/victims/${record._id}`);
    const heading = page.getByRole('heading', { level: 1, name: title });
    await expect(heading).not.toHaveClass(/visually-hidden/);
    // Shown at its size, not clipped to the 1 px a screen-reader-only heading keeps.
    expect((await heading.boundingBox())!.height).toBeGreaterThan(16);
  });
});

test.describe('editors', () => {
  test('/admin is a hub of the administrators\' screens, reached from the header', async ({ page, request }) => {
    await useToken(page, await apiSignIn(request, SUPER.email, SUPER.password));
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Admin' }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Administration' })).toBeVisible();
    for (const [name, href] of [
      ['Users', '/admin/users'],
      ['Audit log', '/admin/audit'],
      ['Trash', '/admin/trash'],
      ['Audit checkpoints', '/admin/checkpoints'],
      ["Representatives' directory", '/admin/representatives'],
    ]) {
      await expect(page.getByRole('main').getByRole('link', { name, exact: true })).toHaveAttribute('href', href!);
    }
    await expect(page.getByTestId('admin-hub-captures')).toContainText('Capture settings');
    await page.getByRole('main').getByRole('link', { name: 'Audit checkpoints' }).click();
    await page.getByRole('button', { name: "Sign the log's head now" }).click();
    await expect(page.getByText(/Checkpoint \d+ signed\.|The log's head is signed already\./)).toBeVisible();
    await expect(page.locator('table.admin-table tbody tr').first()).toBeVisible();
  });

  test('an admin corrects a representative in the directory; the campaign form shows the correction', async ({ page, request }) => {
    const admin = await createAdmin(request, 'directory');
    const directory = (await (await request.get('/api/v1.0.0/campaign/directory')).json()) as { code: string; name: string; provinces: { name: string; representatives: { id: string; name: string; available: boolean }[] }[] }[];
    const country = directory.find((c) => c.provinces.some((p) => p.representatives.some((r) => r.available)))!;
    const province = country.provinces.find((p) => p.representatives.some((r) => r.available))!;
    const rep = province.representatives.find((r) => r.available)!;
    await useToken(page, admin.token);
    await page.goto('/admin/representatives');
    await page.getByRole('combobox', { name: /^Country/ }).selectOption(country.code);
    await page.getByRole('combobox', { name: /^Province or state/ }).selectOption(province.name);
    const form = page.getByRole('form', { name: new RegExp(rep.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });
    await form.getByLabel('Note shown to senders').fill('Test note from the browser tests (test data).');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByRole('status')).toHaveText(`Saved: ${rep.name}.`);
    await expect
      .poll(async () => JSON.stringify(await (await request.get('/api/v1.0.0/campaign/directory')).json()))
      .toContain('Test note from the browser tests (test data).');
    // Put the directory back as it was.
    const undo = await request.put(`/api/v1.0.0/representatives/${rep.id}`, { data: { note: null }, headers: { authorization: `Bearer ${admin.token}` } });
    expect(undo.status()).toBe(200);
  });

  test('the dashboard and the account screens arrive as a server-drawn frame (header, Loading..., footer)', async ({ request }) => {
    for (const address of ['/dashboard', '/dashboard?category=victims', '/signin']) {
      const html = await (await request.get(address)).text();
      expect(html, address).toMatch(/<div id="root"><header class="site-header">/);
      expect(html, address).toContain('Loading...');
      expect(html, address).toContain('<footer class="site-footer">');
      // No state to adopt: the app draws the screen itself.
      expect(html, address).not.toContain('id="app-state"');
    }
  });
});

test.describe('writing to a representative', () => {
  test('the search box finds a representative by riding name with the keyboard and fills the cascade', async ({ page, request }) => {
    const directory = (await (await request.get('/api/v1.0.0/campaign/directory')).json()) as { code: string; provinces: { name: string; representatives: { district: string; available: boolean }[] }[] }[];
    const country = directory.find((c) => c.provinces.some((p) => p.representatives.some((r) => r.available)))!;
    const province = country.provinces.find((p) => p.representatives.some((r) => r.available))!;
    const rep = province.representatives.find((r) => r.available)!;
    await page.goto('/');
    // The form is fetched once its section is on screen.
    await page.locator('#home-campaign-title').scrollIntoViewIfNeeded();
    const box = page.getByRole('combobox', { name: 'Find your representative' });
    await box.scrollIntoViewIfNeeded();
    await box.focus();
    await expect(box).toHaveAccessibleDescription("Type your riding, electorate or member's name");
    await box.pressSequentially(rep.district);
    await expect(page.getByRole('listbox', { name: 'Representatives found' }).getByRole('option').first()).toContainText(rep.district);
    await box.press('Enter');
    await expect(page.getByLabel('Country')).toHaveValue(country.code);
    await expect(page.getByLabel('Province or state')).toHaveValue(province.name);
    await expect(page.getByLabel('District')).toHaveValue(rep.district);
  });

  test('changing the country after editing the letter asks first, and the replacement can be undone', async ({ page }) => {
    await page.goto('/');
    await page.locator('#home-campaign-title').scrollIntoViewIfNeeded();
    const country = page.locator('form.campaign-form').getByLabel('Country');
    await country.scrollIntoViewIfNeeded();
    await country.focus();
    await expect(country.getByRole('option', { name: 'Australia' })).toBeAttached();
    await country.selectOption('CA');
    const letter = page.getByLabel('Message');
    await letter.fill('My own letter, written by the browser tests (test data).');
    await country.selectOption('AU');
    await expect(letter).toHaveValue('My own letter, written by the browser tests (test data).');
    await expect(page.getByTestId('letter-choice')).toContainText('Replace it with the default letter for Australia?');
    await page.getByRole('button', { name: 'Use the letter for Australia' }).click();
    await expect(letter).not.toHaveValue('My own letter, written by the browser tests (test data).');
    await page.getByRole('button', { name: 'Undo: bring my letter back' }).click();
    await expect(letter).toHaveValue('My own letter, written by the browser tests (test data).');
    await appReady(page);
  });
});
