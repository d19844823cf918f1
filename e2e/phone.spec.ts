import { apiCreate, apiSignIn, createContributor, SUPER, useToken } from './editor-helpers';
import { expect, test, type Page } from './fixtures';

/**
 * Issue 38 on a 375 px phone and for editors: private records marked, others' records not offered for editing, role
 * changes that fit, the massacres table, search results first, statistics readable, the map naming its regions, and
 * the export for spreadsheets. Records made here are labelled test data.
 */
const PHONE = { width: 375, height: 812 };

/** Whether anything in the page is wider than the screen (a sideways scroll nobody asked for). */
const overflowsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

test.describe('editors cues', () => {
  test('a private record carries a lock and "Private" for a signed-in reader: card, massacres table, search hit, detail', async ({ page, request }) => {
    const superToken = await apiSignIn(request, SUPER.email, SUPER.password);
    const title = 'Test private massacre Zorvane (test data)';
    const record = await apiCreate(request, superToken, 'massacres', { title, description: 'Test data.', caseNum: 'TEST-PRIVATE-1' });
    const access = await request.put(`/api/v1.0.0/massacres/${record._id}/access`, { headers: { authorization: `Bearer ${superToken}` } });
    expect(access.status()).toBe(200);
    const reader = await createContributor(request, 'private-reader');
    await useToken(page, reader.token);

    await page.goto('/massacres');
    const card = page.getByTestId('record-card').filter({ hasText: title });
    await expect(card.getByTestId('private-mark')).toHaveText('Private');
    await expect(page.getByTestId('record-card').filter({ hasText: 'Sample massacre 1' }).getByTestId('private-mark')).toHaveCount(0);
    await page.getByRole('button', { name: 'Table' }).click();
    await expect(page.getByRole('row').filter({ hasText: 'TEST-PRIVATE-1' }).getByTestId('private-mark')).toBeVisible();
    await page.goto('/search?q=Zorvane');
    await expect(page.getByTestId('search-hit').filter({ hasText: title }).getByTestId('private-mark')).toBeVisible();
    await page.goto(`/massacres/${record._id}`);
    await expect(page.locator('.detail-meta').getByTestId('private-mark')).toHaveText('Private');
  });

  test("another editor's record offers no edit, and its edit address says so before any typing", async ({ page, request }) => {
    const superToken = await apiSignIn(request, SUPER.email, SUPER.password);
    const other = await apiCreate(request, superToken, 'victims', { title: 'Test victim of the super (test data)', description: 'Test data.' });
    const contributor = await createContributor(request, 'not-owner');
    await useToken(page, contributor.token);
    await page.goto(`/victims/${other._id}`);
    await expect(page.getByRole('heading', { name: 'Test victim of the super (test data)' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0);
    await page.goto(`/victims/edit/${other._id}`);
    await expect(page.getByTestId('edit-refused')).toHaveText('You can only change records you created.');
    await expect(page.getByLabel('Title', { exact: true })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Update' })).toHaveCount(0);
  });

  test('role changes: the role column fits a phone, and a change is confirmed in a dialog naming both roles', async ({ page, request }) => {
    await page.setViewportSize(PHONE);
    const contributor = await createContributor(request, 'role-phone');
    await useToken(page, await apiSignIn(request, SUPER.email, SUPER.password));
    await page.goto('/admin/users');
    const select = page.getByRole('combobox', { name: /^Role of Sample Editor role-phone/ });
    await select.scrollIntoViewIfNeeded();
    const box = (await select.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    expect(await overflowsSideways(page)).toBe(false);
    await select.selectOption('admin');
    const dialog = page.getByRole('dialog', { name: 'Change a role' });
    await expect(dialog).toContainText('from Contributor to Admin?');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(select).toHaveValue('contributor');
    const unchanged = await request.get('/api/users?limit=200', { headers: { authorization: `Bearer ${await apiSignIn(request, SUPER.email, SUPER.password)}` } });
    const listed = (await unchanged.json()) as { id: string; role: string }[];
    expect(listed.find((u) => u.id === contributor.id)?.role).toBe('contributor');
  });
});

test.describe('on a phone', () => {
  test.beforeEach(async ({ page }) => page.setViewportSize(PHONE));

  test('the massacres table shows each row as a block of label: value lines, nothing off-screen, no word broken', async ({ page }) => {
    await page.goto('/massacres?view=table');
    const row = page.locator('.massacre-table tbody tr').first();
    await expect(row).toBeVisible();
    expect(await overflowsSideways(page)).toBe(false);
    const casualties = row.locator('td[data-label="Casualties"]');
    await expect(casualties).toBeInViewport();
    expect(await casualties.evaluate((td) => getComputedStyle(td, '::before').content)).toBe('"Casualties"');
    // Words wrap between words only (a long link may still break anywhere).
    for (const cell of await row.locator('td:not([data-label="Evidences"])').all()) {
      expect(await cell.evaluate((td) => getComputedStyle(td).overflowWrap)).not.toBe('anywhere');
    }
  });

  test('search: the results and their count come first; the filters open behind "Filters (n)"', async ({ page }) => {
    await page.goto('/search?q=sample&category=massacres');
    await expect(page.getByTestId('search-total')).toHaveText(/\d+ records? found/);
    const first = page.getByTestId('search-hit').first();
    await expect(first).toBeVisible();
    expect((await first.boundingBox())!.y).toBeLessThan(PHONE.height);
    const toggle = page.getByRole('button', { name: 'Filters (1)' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByLabel('From')).toBeHidden();
    await toggle.click();
    await expect(page.getByLabel('From')).toBeVisible();
    expect(await overflowsSideways(page)).toBe(false);
  });

  test('search: a bad parameter in the address shows the form with the field error, the filters kept', async ({ page }) => {
    await page.goto('/search?q=sample&from=not-a-day&category=massacres');
    await expect(page.getByTestId('search-refused')).toBeVisible();
    await expect(page.getByText(/Something went wrong/)).toHaveCount(0);
    const from = page.getByLabel('From');
    await expect(from).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator(`[id="${await from.getAttribute('aria-describedby')}"]`)).not.toBeEmpty();
    await expect(page.getByLabel('Words or names')).toHaveValue('sample');
    await expect(page.getByTestId('facet-category').getByRole('checkbox', { checked: true })).toHaveCount(1);
  });

  test('statistics: every chart label is at least 12 px, months are named, and "People killed" says what it counts', async ({ page }) => {
    await page.goto('/statistics');
    await expect(page.locator('.bar-chart').first()).toBeVisible();
    // Rendered size: an SVG's text is scaled with its drawing.
    const sizes = await page.evaluate(() => {
      const out: { text: string; px: number }[] = [];
      const shown = (el: Element) => el.getClientRects().length > 0;
      for (const label of document.querySelectorAll<HTMLElement>('.bar-label, .bar-value, .chart-table th, .chart-table td')) {
        if (shown(label)) out.push({ text: label.textContent ?? '', px: parseFloat(getComputedStyle(label).fontSize) });
      }
      for (const text of [...document.querySelectorAll<SVGTextElement>('svg text')].filter(shown)) {
        const svg = text.ownerSVGElement!;
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        out.push({ text: text.textContent ?? '', px: parseFloat(getComputedStyle(text).fontSize) * scale });
      }
      return out;
    });
    expect(sizes.length).toBeGreaterThan(10);
    expect(sizes.filter((s) => s.px < 12 && s.text.trim() !== '')).toEqual([]);
    const monthLabels = await page.locator('.month-chart-svg text').allTextContents();
    expect(monthLabels.some((l) => /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)$/.test(l))).toBe(true);
    await expect(page.getByTestId('killed-counted')).toContainText('Counts confirmed and not yet confirmed records.');
    await page.getByRole('link', { name: 'Count confirmed records only' }).click();
    await expect(page).toHaveURL(/confirmed=true/);
    await expect(page.getByTestId('killed-counted')).toContainText('Counts confirmed records only.');
  });

  test('the map names its regions beside it; pointing at a name lights its area; sample records have regions', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/map');
    const names = page.getByRole('list', { name: 'Regions and their records' });
    await expect(names.getByRole('link', { name: /^Amhara \(\d+\)$/ })).toBeVisible();
    // A fresh install's sample records are placed: several regions have records.
    const counts = (await names.getByRole('link').allTextContents()).map((t) => Number(/\((\d+)\)$/.exec(t)?.[1] ?? 0));
    expect(counts.filter((n) => n > 0).length).toBeGreaterThanOrEqual(4);
    const area = page.locator('svg a[data-region="amhara"] .region-map-area');
    const before = await area.evaluate((path) => getComputedStyle(path).strokeWidth);
    await names.getByRole('link', { name: /^Amhara/ }).hover();
    await expect.poll(() => area.evaluate((path) => getComputedStyle(path).strokeWidth)).not.toBe(before);
    await names.getByRole('link', { name: /^Afar/ }).focus();
    await expect.poll(() => page.locator('svg a[data-region="afar"] .region-map-area').evaluate((path) => getComputedStyle(path).strokeWidth)).toBe('3px');
    await expect(page.locator('svg .region-map-label', { hasText: 'Oromia' })).toBeVisible();
  });

  test('export: "CSV for spreadsheets" starts with a UTF-8 byte order mark, the plain CSV does not; one line per format', async ({ page, request }) => {
    await page.goto('/search?q=sample');
    await page.getByTestId('search-download').getByRole('link', { name: 'which to choose' }).click();
    await expect(page).toHaveURL(/\/export\?q=sample$/);
    const spreadsheet = page.getByTestId('export-spreadsheet');
    await expect(spreadsheet).toContainText('Amharic shown correctly');
    const bomHref = await spreadsheet.getByRole('link', { name: 'CSV for spreadsheets' }).getAttribute('href');
    const plainHref = await page.getByTestId('export-csv').getByRole('link', { name: 'CSV', exact: true }).getAttribute('href');
    const withMark = await (await request.get(bomHref!)).body();
    const plain = await (await request.get(plainHref!)).body();
    expect([...withMark.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect([...plain.subarray(0, 3)]).not.toEqual([0xef, 0xbb, 0xbf]);
    expect(withMark.subarray(3).toString('utf8')).toBe(plain.toString('utf8'));
    await expect(page.getByRole('link', { name: 'Read the column descriptions (datapackage.json)' })).toHaveAttribute('href', '/api/v1.0.0/datapackage.json');
    expect(await overflowsSideways(page)).toBe(false);
  });

  test('missing people are labelled as missing on their cards, detail page, search hits and form', async ({ page, request }) => {
    const labels = ['Number of people kidnapped or missing', 'Date of kidnapping or disappearance'];
    await page.goto('/missings');
    const card = page.getByTestId('record-card').first();
    for (const label of labels) await expect(card).toContainText(label);
    await card.getByRole('heading', { level: 2 }).getByRole('link').click();
    await expect(page).toHaveURL(/\/missings\/[0-9a-f-]{36}$/);
    for (const label of labels) await expect(page.locator('dl').getByText(label, { exact: true })).toBeVisible();
    await page.goto('/search?q=sample&category=missings');
    // A hit is compact: it names its date by the missing people's label; the number is on the card and the page.
    await expect(page.getByTestId('search-hit').first()).toContainText(`${labels[1]}:`);
    await useToken(page, await apiSignIn(request, SUPER.email, SUPER.password));
    await page.goto('/dashboard?category=missings');
    for (const label of labels) await expect(page.getByLabel(label)).toBeVisible();
  });

  test('statistics and map: the filters fold behind "Filters (n)", so the counts and the map are on the first screen', async ({ page }) => {
    await page.goto('/map?category=massacres');
    const toggle = page.getByRole('button', { name: 'Filters (1)' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByLabel('Killing type')).toBeHidden();
    const map = page.getByRole('group', { name: 'Records per region on the map' });
    expect((await map.boundingBox())!.y).toBeLessThan(PHONE.height);
    await toggle.click();
    await expect(page.getByLabel('Killing type')).toBeVisible();
    await expect(page.getByLabel('Category')).toHaveValue('massacres');
    await page.goto('/statistics');
    await expect(page.getByRole('button', { name: 'Filters (0)' })).toBeVisible();
    expect((await page.getByText('People killed in massacres').boundingBox())!.y).toBeLessThan(PHONE.height);
    expect(await overflowsSideways(page)).toBe(false);
  });

  test('without JavaScript a phone still reaches the menu and the search and statistics filters, which no button can unfold', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
    const reader = await context.newPage();
    await reader.goto('/victims');
    await expect(reader.locator('.menu-toggle')).toBeHidden();
    const menu = reader.getByRole('navigation', { name: 'Menu' });
    await expect(menu.getByRole('link', { name: 'Statistics', exact: true })).toBeInViewport();
    await expect(menu.getByRole('link', { name: 'Orphans', exact: true })).toBeVisible();
    expect(await overflowsSideways(reader)).toBe(false);
    await reader.goto('/search?q=sample');
    await expect(reader.getByRole('button', { name: /^Filters \(/ })).toBeHidden();
    await expect(reader.getByTestId('facet-category')).toBeVisible();
    await reader.goto('/statistics');
    await expect(reader.getByRole('button', { name: /^Filters \(/ })).toBeHidden();
    await expect(reader.getByLabel('Killing type')).toBeVisible();
    expect(await overflowsSideways(reader)).toBe(false);
    await context.close();
  });

  test('the audit log is one block per entry on a phone: people named, nothing off-screen, no word broken', async ({ page, request }) => {
    const superToken = await apiSignIn(request, SUPER.email, SUPER.password);
    await apiCreate(request, superToken, 'victims', { title: 'Test victim for the audit log (test data)', description: 'Test data.' });
    await useToken(page, superToken);
    await page.goto('/admin/audit');
    const row = page.locator('table.admin-table tbody tr').first();
    await expect(row.locator('td[data-label="Who"]')).toBeInViewport();
    expect(await row.locator('td[data-label="Who"]').evaluate((td) => getComputedStyle(td, '::before').content)).toBe('"Who"');
    const who = row.locator('td[data-label="Who"] button');
    // The person's name (issue 52 item 20), their whole id in the title.
    await expect(who).toHaveText(/\S/);
    await expect(who).toHaveAttribute('title', /^[0-9a-f-]{36}$/);
    expect(await overflowsSideways(page)).toBe(false);
    // Each cell's words stay whole: a line breaks only between them.
    for (const cell of await row.locator('td').all()) {
      expect(await cell.evaluate((td) => getComputedStyle(td).overflowWrap)).not.toBe('anywhere');
      expect(await cell.locator('code').evaluateAll((codes) => codes.map((c) => getComputedStyle(c).wordBreak))).not.toContain('break-all');
    }
  });
});
