import en from '../apps/web/src/locales/en.json' with { type: 'json' };
import { expect, test, type Page } from './fixtures';

/**
 * Reading pages for a signed-out reader in English run only their islands (apps/web/src/islands): the app's code is
 * never asked for, and each island works on its own. An editor, or a reader of another language, gets the app.
 */

/** The scripts a page asks for, and the islands' scripts its server listed. */
async function scriptsOf(page: Page, path: string) {
  const requested = new Set<string>();
  page.on('request', (r) => {
    if (r.resourceType() === 'script') requested.add(new URL(r.url()).pathname);
  });
  await page.goto(path);
  const listed = await page.evaluate(() => JSON.parse(document.getElementById('app-code')!.textContent!) as { app: string[]; islands: string[] });
  return { requested: [...requested], listed };
}

test.describe('islands', () => {
  for (const path of ['/', '/victims', '/search?q=sample', '/statistics', '/map']) {
    test(`${path} loads its islands' code and nothing of the app`, async ({ page }) => {
      const { requested, listed } = await scriptsOf(page, path);
      expect(listed.islands.length).toBeGreaterThan(0);
      const appEntry = listed.app[0]!;
      expect(requested).not.toContain(appEntry);
      for (const script of requested) expect(listed.islands, `${script} is not one of the page's islands`).toContain(script);
      expect(requested.length).toBeLessThanOrEqual(6);
    });
  }

  test("a page without images or statistics loads neither's code, and its islands' strings come in the page, not the scripts", async ({ page, request }) => {
    for (const path of ['/', '/victims']) {
      const { requested } = await scriptsOf(page, path);
      expect(requested.filter((script) => /ImageCarousel|FilterForm/.test(script)), path).toEqual([]);
      // A string of the editors' screens alone: the scripts carry none of the site's strings.
      for (const script of requested) {
        const text = await (await request.get(script)).text();
        expect(text.includes(en.admin.checkpointsIntro), `${script} holds the strings of the editors' screens`).toBe(false);
      }
      const strings = JSON.parse((await page.locator('#island-strings').textContent()) ?? '{}') as typeof en;
      expect(strings.nav.menu, path).toBe(en.nav.menu);
      expect(Object.keys(strings), path).not.toContain('admin');
    }
  });

  test('menu: the phone menu opens and closes, Browse opens on a wide screen', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/victims');
    const toggle = page.locator('.menu-toggle');
    await toggle.click();
    await expect(page.locator('#site-menu')).toHaveClass(/is-open/);
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Escape');
    await expect(page.locator('#site-menu')).not.toHaveClass(/is-open/);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.locator('.browse-toggle').click();
    await expect(page.locator('#browse-panel')).toHaveClass(/is-open/);
    await page.locator('#browse-panel a[href="/orphans"]').click();
    await expect(page).toHaveURL(/\/orphans$/);
  });

  test('islands a reader only reads past are never adopted; the first press or key adopts one, and that press works', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/statistics');
    const menu = page.locator('island-root[data-island="menu"]');
    const filters = page.locator('island-root[data-island="statisticsFilters"]');
    await expect(menu).not.toHaveAttribute('data-adopted');
    await expect(filters).not.toHaveAttribute('data-adopted');
    // By keyboard: focus, then Enter, opens the phone menu.
    await page.locator('.menu-toggle').focus();
    await expect(menu).toHaveAttribute('data-adopted', '');
    await page.keyboard.press('Enter');
    await expect(page.locator('#site-menu')).toHaveClass(/is-open/);
    await expect(filters).not.toHaveAttribute('data-adopted');
    await page.keyboard.press('Escape');
    // By pointer: the first tap on "Filters (n)" opens them.
    await page.locator('.statistics-filters-toggle').click();
    await expect(filters).toHaveAttribute('data-adopted', '');
    await expect(page.locator('#statistics-filters')).toHaveClass(/is-open/);
  });

  test('share: the copy button copies the page address and says so', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/victims');
    await page.getByTestId('record-card').first().getByRole('link').first().click();
    await page.locator('html[data-app="ready"]').waitFor({ state: 'attached' });
    const copy = page.locator('.share-control').getByTestId('copy-button');
    await copy.click();
    await expect(copy).toHaveText('copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('/victims/');
  });

  test('language: choosing Amharic starts the app, which shows the page in Amharic', async ({ page }) => {
    await page.goto('/victims');
    await page.getByRole('combobox', { name: 'Language' }).selectOption('am');
    await expect(page.locator('html')).toHaveAttribute('lang', 'am');
    await expect(page.locator('.menu-toggle .visually-hidden')).not.toHaveText('Menu');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'am');
  });

  test('search filters: "Filters (n)" opens them on a phone, a ticked facet searches at once without empty fields', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/search?q=sample');
    await page.getByTestId('filters-toggle').click();
    await expect(page.locator('#search-filters')).toHaveClass(/is-open/);
    await page.getByTestId('facet-category').locator('input[type="checkbox"]').first().check();
    await expect(page).toHaveURL(/\/search\?q=sample&category=/);
    expect(page.url()).not.toMatch(/from=|to=|confirmed=/);
  });

  test('statistics filters: sent without their empty fields; the charts are never adopted', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/statistics');
    expect(await page.locator('#root svg island-root, island-root svg').count()).toBe(0);
    await page.locator('.statistics-filters-toggle').click();
    await page.locator('#statistics-confirmed').selectOption('true');
    await page.locator('#statistics-filters button[type="submit"]').click();
    await expect(page).toHaveURL(/\/statistics\?confirmed=true$/);
  });

  test('massacres: the table/card toggle opens the other view', async ({ page }) => {
    await page.goto('/massacres');
    await page.getByRole('button', { name: 'Table' }).click();
    await expect(page).toHaveURL(/view=table/);
    await expect(page.getByRole('button', { name: 'Table' })).toHaveAttribute('aria-pressed', 'true');
  });
});
