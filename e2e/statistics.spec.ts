import AxeBuilder from '@axe-core/playwright';
import { API_BASE } from '@app/shared';
import { apiSignIn, SUPER } from './editor-helpers';
import { expect, test } from './fixtures';

/**
 * /statistics and /map: tables beside the charts, bars and map regions as links to the filtered search, reachable by
 * keyboard. The search page is built elsewhere, so the tests assert the address a link opens, not the page there.
 */
test.describe('statistics and map', () => {
  let massacreDeaths = 0;

  test.beforeAll(async ({ request }) => {
    const token = await apiSignIn(request, SUPER.email, SUPER.password);
    const records = [
      { quantity: '17', region: 'amhara', victimizer: 'Test perpetrator (e2e)', happenedOn: '2021-05-03T00:00:00' },
      { quantity: '4', region: 'afar', victimizer: 'Test perpetrator (e2e)', happenedOn: '2022-02-10T00:00:00' },
    ];
    for (const fields of records) {
      const res = await request.post(`${API_BASE}/massacres`, {
        headers: { authorization: `Bearer ${token}` },
        data: { title: 'Test massacre (e2e test data)', description: 'Test data, not a real record.', location: 'Test place', ...fields },
      });
      expect(res.status()).toBe(201);
    }
    const stats = await (await request.get(`${API_BASE}/statistics`)).json();
    massacreDeaths = stats.killed.massacreDeaths;
  });

  test('the statistics page shows each chart with its table, and a bar opens the filtered search', async ({ page }) => {
    await page.goto('/statistics?category=massacres');
    await expect(page.getByRole('heading', { level: 1, name: 'Statistics' })).toBeVisible();
    for (const title of ['Records per category', 'Records per region', 'Records per month', 'Records per perpetrator']) {
      const figure = page.getByRole('figure', { name: title });
      await expect(figure).toBeVisible();
      await expect(figure.getByRole('table')).toBeVisible();
    }
    // The numbers are in the tables as text (what a screen reader reads and a copy takes).
    const regions = page.getByRole('figure', { name: 'Records per region' }).getByRole('table');
    await expect(regions.getByRole('row', { name: /Amhara/ }).getByRole('cell')).not.toHaveText('0');
    await expect(page.locator('dl.statistics-totals')).toContainText(new Intl.NumberFormat('en').format(massacreDeaths));

    // A bar keeps the page's filters and adds its own.
    const bar = page.getByRole('figure', { name: 'Records per region' }).getByRole('link', { name: /^Amhara \d+ records?$/ });
    await expect(bar).toHaveAttribute('href', '/search?category=massacres&region=amhara');
    await bar.click();
    await expect(page).toHaveURL(/\/search\?category=massacres&region=amhara$/);
  });

  test("a bar's link is named by the words it shows (Lighthouse's label-content-name-mismatch), on both pages", async ({ page }) => {
    for (const address of ['/statistics', '/map']) {
      await page.goto(address);
      await expect(page.locator('.bar-chart').first()).toBeVisible();
      const results = await new AxeBuilder({ page }).withRules(['label-content-name-mismatch']).analyze();
      expect(results.violations.flatMap((v) => v.nodes.map((n) => n.html)), address).toEqual([]);
    }
  });

  test('the filter form puts its state in the address and the charts follow it', async ({ page }) => {
    await page.goto('/statistics');
    await page.getByLabel('Region', { exact: true }).selectOption('afar');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/\/statistics\?region=afar$/);
    const categories = page.getByRole('figure', { name: 'Records per category' });
    await expect(categories.getByRole('link', { name: /^Massacres \d+ records?$/ })).toHaveAttribute('href', '/search?category=massacres&region=afar');
    // The server renders the filtered page itself (a reload, or a shared link).
    await page.reload();
    await expect(page.getByLabel('Region', { exact: true })).toHaveValue('afar');
    await expect(page.getByRole('figure', { name: 'Records per region' }).getByRole('row', { name: /Amhara/ }).getByRole('cell')).toHaveText('0');
  });

  test('a map region opens the search filtered to it, by pointer and by keyboard', async ({ page }) => {
    await page.goto('/map?confirmed=false');
    const amhara = page.locator('svg a[data-region="amhara"]');
    await expect(amhara).toHaveAttribute('href', '/search?region=amhara&confirmed=false');
    await expect(amhara).toHaveAttribute('aria-label', /^Amhara: \d+ records?$/);
    // The former SNNP area opens the four regions formed from it.
    await expect(page.locator('svg a[data-region="snnp"]')).toHaveAttribute('href', /region=central-ethiopia&region=sidama&region=south-ethiopia&region=south-west-ethiopia/);

    // Keyboard only: Tab reaches the region's link, Enter follows it.
    await page.locator('body').focus();
    let reached = false;
    for (let i = 0; i < 60 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await amhara.evaluate((el) => el === document.activeElement);
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/search\?region=amhara&confirmed=false$/);
  });

  test('an incident with coordinates is a point on the map that opens its page, listed under the map; the map is not adopted by a script', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.push(req.url());
    });
    await page.goto('/map');
    // The sample content's first massacre has a place (rounded to its town for the public).
    const point = page.locator('svg.region-map-svg a.region-map-point').filter({ has: page.locator('title', { hasText: /^Sample massacre 1,/ }) });
    await expect(point).toHaveCount(1);
    await expect(point.locator('circle')).toBeVisible();
    const href = await point.getAttribute('href');
    expect(href).toMatch(/^\/massacres\/[0-9a-f-]{36}$/);
    // Named by its <title> for screen readers, and listed in the table under the map with the same address.
    await expect(page.locator('svg.region-map-svg').getByRole('link', { name: /^Sample massacre 1, / })).toHaveAttribute('href', href!);
    const listed = page.getByRole('region', { name: /incidents? on the map/i });
    const row = listed.getByRole('row', { name: /Sample massacre 1/ });
    await expect(row.getByRole('link', { name: 'Sample massacre 1' })).toHaveAttribute('href', href!);
    await expect(row.getByRole('cell').last()).toHaveText('Nearest town (about 1 km)');
    // A signed-out reader's map is the server's drawing: no script of the map's screen is loaded to adopt it.
    expect(scripts.filter((url) => /MapPage|RegionMap|IncidentPoints|ethiopia/i.test(url))).toEqual([]);
    await point.click();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Sample massacre 1' })).toBeVisible();
  });

  test('a phone lays out only the charts on its first screen, and nothing moves when the others are', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/statistics');
    const charts = page.locator('.statistics .chart, .statistics-regions, .site-footer');
    expect(await charts.count()).toBe(6);
    for (const visibility of await charts.evaluateAll((all) => all.map((el) => getComputedStyle(el).contentVisibility))) expect(visibility).toBe('auto');
    // The charts further down are drawn as they come near the screen; neither that nor the load shifts what is seen.
    await page.mouse.wheel(0, 6000);
    await expect(page.locator('.site-footer')).toBeInViewport();
    const shifted = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) => resolve(list.getEntries().reduce((sum, e) => sum + (e as PerformanceEntry & { value: number }).value, 0))).observe({ type: 'layout-shift', buffered: true });
          setTimeout(() => resolve(0), 500);
        }),
    );
    expect(shifted).toBeLessThan(0.01);
  });

  test('the header links to the statistics, and the home page loads no statistics code', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.push(req.url());
    });
    await page.goto('/');
    await expect(page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Statistics', exact: true })).toHaveAttribute('href', '/statistics');
    expect(scripts.filter((url) => /Statistics|MapPage|ethiopia/i.test(url))).toEqual([]);
  });

  test('the statistics and map pages link only style sheets they use (each one blocks the first paint)', async ({ page }) => {
    for (const path of ['/statistics', '/map']) {
      await page.goto(path);
      // Per linked sheet of the build, how many of its rules match an element of the page (states such as :hover and
      // ::before set aside: the rule's element is what counts).
      const used = await page.evaluate(() => {
        const element = (selector: string) => selector.replace(/::?[a-z-]+(\((?:[^()]|\([^()]*\))*\))?/g, '').trim() || '*';
        const matches = (selectors: string) =>
          selectors.split(',').some((one) => {
            try {
              return document.querySelector(element(one)) !== null;
            } catch {
              return false;
            }
          });
        const styleRules = (rules: CSSRuleList): CSSStyleRule[] =>
          [...rules].flatMap((rule) => (rule instanceof CSSStyleRule ? [rule] : 'cssRules' in rule ? styleRules((rule as CSSGroupingRule).cssRules) : []));
        return [...document.styleSheets]
          .filter((sheet) => sheet.href?.includes('/assets/'))
          .map((sheet) => ({ sheet: new URL(sheet.href!).pathname, rulesUsed: styleRules(sheet.cssRules).filter((rule) => matches(rule.selectorText)).length }));
      });
      expect(used.length, path).toBeGreaterThanOrEqual(2);
      for (const { sheet, rulesUsed } of used) expect(rulesUsed, `${path} links ${sheet}, whose rules match nothing on it`).toBeGreaterThan(0);
    }
  });
});
