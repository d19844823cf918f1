import AxeBuilder from '@axe-core/playwright';
import { appReady, expect, navigateInApp, test, type APIRequestContext, type Page } from './fixtures';
import sharp from 'sharp';

/**
 * The public site on the sample data (3 labelled sample records per category) plus a few records this file creates
 * through the API as the e2e super account.
 */
const API = '/api/v1.0.0';
const SUPER = { email: 'e2e-super@example.test', password: 'e2e super password (test only)' };

let token: string | null = null;
async function auth(request: APIRequestContext) {
  if (!token) {
    const res = await request.post('/api/users/signin', { data: SUPER });
    expect(res.status(), await res.text()).toBe(200);
    token = ((await res.json()) as { token: string }).token;
  }
  return { authorization: `Bearer ${token}` };
}

async function png(seed: number): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: { r: (seed * 53) % 256, g: 90, b: 140 } } }).png().toBuffer();
}

async function createRecord(request: APIRequestContext, slug: string, fields: Record<string, string>, images = 0) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (let i = 0; i < images; i++) {
    const data = await png(Date.now() % 1000 + i);
    form.append(images > 1 || slug === 'massacres' || slug === 'events' ? 'files[]' : 'image', new Blob([new Uint8Array(data)], { type: 'image/png' }), `sample-${i}.png`);
  }
  const res = await request.post(`${API}/${slug}`, { headers: await auth(request), multipart: form });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { _id: string; images: { imageId: string }[] };
}

async function total(request: APIRequestContext, path: string): Promise<number> {
  const res = await request.get(`${API}${path}?limit=1`);
  expect(res.ok()).toBe(true);
  return Number(res.headers()['x-total-count']);
}

async function expectNoSeriousA11yViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test.describe('public site', () => {
  test('home: five tiles, disclaimer, purpose in one of three accents; no list is fetched', async ({ page }) => {
    const listCalls: string[] = [];
    page.on('request', (r) => {
      // The campaign form and its directory load once the form's section is on screen (covered by campaign.spec.ts).
      if (r.url().includes('/api/') && !r.url().includes('/campaign/directory')) listCalls.push(r.url());
    });
    await page.goto('/');
    const tiles = page.getByRole('navigation', { name: 'Categories' }).getByRole('link');
    await expect(tiles).toHaveCount(5);
    const expected = [
      ['Atrocities', '/massacres'],
      ['Displacement', '/displacements'],
      ['Images', '/images'],
      ['Videos', '/videos'],
      ['Media', '/links'],
    ];
    for (const [i, [name, href]] of expected.entries()) {
      await expect(tiles.nth(i)).toHaveText(new RegExp(name!));
      await expect(tiles.nth(i)).toHaveAttribute('href', href!);
    }
    await expect(page.getByText('The content of this site comes from human rights institutions and media reports. Readers must verify the information.')).toBeVisible();
    await expect(page.getByTestId('purpose')).toHaveClass(/accent-(red|green|gold)/);
    await expect(page.getByTestId('purpose').locator('p[lang="am"]')).toBeVisible();
    await expect(page.getByTestId('purpose').locator('p[lang="en"]')).toBeVisible();
    expect(listCalls).toEqual([]);
    await tiles.nth(1).click();
    await expect(page).toHaveURL(/\/displacements$/);
    await expect(page.getByTestId('page-title')).toHaveText(/^Displaced People \d+$/);
  });

  test('every list: title with the API total, cards with preview and Read More', async ({ page, request }) => {
    const titles: [string, string, (n: number) => string][] = [
      ['/victims', 'victims', (n) => `Victims (${n})`],
      ['/massacres', 'massacres', (n) => `Massacres (${n})`],
      ['/displacements', 'displacements', (n) => `Displaced People ${n}`],
      ['/orphans', 'orphans', (n) => `Orphans ${n}`],
      ['/missings', 'missings', (n) => `Missing ${n}`],
      ['/videos', 'videos', (n) => `Videos: ${n}`],
      ['/links', 'links', (n) => `Links: ${n}`],
      ['/events', 'events', (n) => `Events: ${n}`],
      ['/educations', 'blogs', (n) => `Education: ${n}`],
    ];
    for (const [route, slug, title] of titles) {
      const n = await total(request, `/${slug}`);
      expect(n, slug).toBeGreaterThan(0);
      await page.goto(route);
      await expect(page.getByTestId('page-title'), route).toHaveText(title(n));
      await expect(page.getByTestId('record-card').first(), route).toBeVisible();
      const readMore = page.getByTestId('record-card').first().getByRole('link', { name: /^Read more about / });
      await expect(readMore.locator('[aria-hidden="true"]'), route).toHaveText('Read More');
    }
  });

  test('preview length (150 for displacements, 250 for victims) and the image placeholder', async ({ page, request }) => {
    const long = `Sample test record, not real data. ${'Long sample preview words. '.repeat(20)}`;
    await createRecord(request, 'displacements', { title: 'Sample long displacement', description: long });
    await createRecord(request, 'victims', { title: 'Sample long victim', description: `**${long}**` });
    const plain = long.replace(/\s+/g, ' ').trim();
    await page.goto('/displacements');
    const displacement = page.getByTestId('record-card').filter({ hasText: 'Sample long displacement' });
    await expect(displacement.getByTestId('card-preview')).toHaveText(`${plain.slice(0, 150)}...`);
    await expect(displacement.getByTestId('image-placeholder')).toBeVisible();
    await page.goto('/victims');
    const victim = page.getByTestId('record-card').filter({ hasText: 'Sample long victim' });
    // Markdown shows as plain text in previews.
    await expect(victim.getByTestId('card-preview')).toHaveText(`${plain.slice(0, 250)}...`);
    // Card images are 30% of the card.
    const card = await victim.boundingBox();
    const image = await victim.locator('.card-image').boundingBox();
    expect(Math.abs(image!.width / card!.width - 0.3)).toBeLessThan(0.05);
  });

  test('empty lists show the spec texts', async ({ page }) => {
    const empty = async (slug: string) =>
      page.route(`**${API}/${slug}?*`, (route) => route.fulfill({ status: 200, json: [], headers: { 'X-Total-Count': '0' } }));
    await empty('events');
    await empty('educations');
    await empty('blogs');
    await empty('victims');
    await page.route(`**${API}/images?*`, (route) => route.fulfill({ status: 200, json: [], headers: { 'X-Total-Count': '0' } }));
    // Lists reached inside the app are fetched by the browser (a first load comes rendered by the server, and a reading
    // page runs no app: the app starts on a screen it draws, such as sign-in).
    await page.goto('/signin');
    await navigateInApp(page, '/events');
    await expect(page.getByText('No event', { exact: true })).toBeVisible();
    await expect(page.getByTestId('page-title')).toHaveText('Events: 0');
    await navigateInApp(page, '/educations');
    await expect(page.getByText('No blogs found', { exact: true })).toBeVisible();
    await navigateInApp(page, '/victims');
    await expect(page.getByText('No data has been found', { exact: true })).toBeVisible();
    await navigateInApp(page, '/images');
    await expect(page.getByText('No image found', { exact: true })).toBeVisible();
    await expect(page.getByTestId('page-title')).toHaveText('Images (0)');
  });

  test('lists and records arrive rendered by the server: readable without JavaScript, then taken over without a refetch', async ({ browser, page, request }) => {
    const record = await createRecord(request, 'victims', {
      title: 'Sample server-rendered victim (test only)',
      description: '## Sample heading\n\nSample **bold** description, not real data.',
    });
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const reader = await noScript.newPage();
    await reader.goto('/victims');
    await expect(reader.getByTestId('page-title')).toHaveText(`Victims (${await total(request, '/victims')})`);
    await expect(reader.getByRole('link', { name: 'Sample server-rendered victim (test only)', exact: true })).toBeVisible();
    await reader.goto(`/victims/${record._id}`);
    await expect(reader.getByRole('heading', { name: 'Sample heading' })).toBeVisible();
    await expect(reader.locator('strong', { hasText: 'bold' })).toBeVisible();
    await noScript.close();

    const apiCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes(`${API}/victims`)) apiCalls.push(r.url());
    });
    await page.goto('/victims');
    // The app started from the data in the page: no second request for the same list.
    expect(apiCalls).toEqual([]);
    await page.getByRole('link', { name: 'Sample server-rendered victim (test only)', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/victims/${record._id}$`));
    await expect(page.getByRole('heading', { name: 'Sample heading' })).toBeVisible();
  });

  test('a server-rendered list runs a few scripts (its islands), keeps every element the server sent, and every card works after', async ({ page, request }) => {
    for (const n of [1, 2]) {
      await createRecord(request, 'victims', { title: `Sample adopted victim ${n} (test only)`, description: 'Sample description, not real data.' });
    }
    // Every element removed from the page from its first byte on: adopting the islands must remove none.
    await page.addInitScript(() => {
      const removed: string[] = [];
      Object.assign(window, { removedElements: removed });
      new MutationObserver((records) => {
        for (const record of records) {
          for (const node of record.removedNodes) if (node instanceof Element) removed.push(node.outerHTML.slice(0, 120));
        }
      }).observe(document, { childList: true, subtree: true });
    });
    const scripts = new Set<string>();
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.add(new URL(r.url()).pathname);
    });
    await page.goto('/victims');
    const cards = page.getByTestId('record-card');
    expect(await cards.count()).toBeGreaterThanOrEqual(5);
    // The shared code comes in a few grouped chunks (vite.config.ts), not one request per small module.
    await expect(page.locator('html[data-app="ready"]')).toBeAttached();
    expect([...scripts].length, [...scripts].join('\n')).toBeLessThanOrEqual(6);
    expect(await page.evaluate(() => (window as unknown as { removedElements: string[] }).removedElements)).toEqual([]);

    // A card's link is a plain link to the record's page, rendered by the server.
    const last = cards.last();
    const title = (await last.locator('.card-title').textContent()) ?? '';
    await last.getByRole('link', { name: `Read more about ${title}` }).click();
    await expect(page).toHaveURL(/\/victims\/[^/]+$/);
    await expect(page.getByTestId('page-title')).toHaveText(title);
  });

  test('"Loading..." while a list is pending', async ({ page }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route(`**${API}/orphans?*`, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/signin');
    await navigateInApp(page, '/orphans');
    await expect(page.getByRole('status')).toHaveText('Loading...');
    release();
    await expect(page.getByTestId('record-card').first()).toBeVisible();
  });

  test('massacres: card/table toggle, table columns and the red disclaimer', async ({ page }) => {
    await page.goto('/massacres');
    await page.getByRole('button', { name: 'Table' }).click();
    await expect(page).toHaveURL(/view=table/);
    const disclaimer = page.getByTestId('table-disclaimer');
    await expect(disclaimer).toHaveText('This fact sheet is collected from human rights institutions and media reports. Consumers must verify the information.');
    expect(await disclaimer.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(176, 0, 32)');
    const headers = page.locator('.massacre-table thead th');
    await expect(headers).toHaveText(['Case No.', 'Description', 'Location', 'Date', 'Evidences', 'Casualties']);
    const row = page.locator('.massacre-table tbody tr').filter({ hasText: 'SAMPLE-001' });
    await expect(row.getByRole('link', { name: 'SAMPLE-001' })).toHaveAttribute('href', /^\/massacres\/[0-9a-f-]{36}$/);
    await expect(row.locator('td').nth(1)).toHaveText('Sample record - not real data: short description 1.');
    await expect(row.locator('td').nth(3)).toHaveText('Jan 10, 2020 (sample remark)');
    await expect(row.locator('td').nth(4).getByRole('link')).toHaveText(['https://example.org/sample-evidence-1', 'https://example.org/sample-evidence-2']);
    await expect(row.locator('td').nth(5)).toHaveText('10');
    // Back to cards; the URL keeps the choice, so back returns to the table.
    await page.getByRole('button', { name: 'Cards' }).click();
    await expect(page.getByTestId('record-card').first()).toBeVisible();
    await page.goBack();
    await expect(page.getByTestId('table-disclaimer')).toBeVisible();
  });

  test('detail: markdown rendered, an XSS attempt sanitised and not run, confirmation, fixity, share links', async ({ page, request }) => {
    const description = [
      '## Sample heading',
      '',
      '**Sample bold** text, not real data. [Sample source](https://example.org/source)',
      '',
      '[bad link](javascript:window.__xss=1) <img src="x" onerror="window.__xss=2"> <script>window.__xss=3</script>',
      '',
      '<a href="https://example.org" onclick="window.__xss=4">raw html link</a>',
    ].join('\n');
    const record = await createRecord(request, 'victims', { title: 'Sample XSS test victim', description }, 1);
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`/victims/${record._id}`);
    await expect(page.getByTestId('page-title')).toHaveText('Sample XSS test victim');
    const body = page.locator('.detail-description');
    await expect(body.getByRole('heading', { name: 'Sample heading' })).toBeVisible();
    await expect(body.locator('strong')).toHaveText('Sample bold');
    const source = body.getByRole('link', { name: 'Sample source' });
    await expect(source).toHaveAttribute('href', 'https://example.org/source');
    await expect(source).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(source).toHaveAttribute('target', '_blank');
    // No javascript: URL survives, no element carries an event handler, no script element is made.
    await expect(body.locator('[href^="javascript:"]')).toHaveCount(0);
    await expect(body.locator('[onerror], [onclick], script')).toHaveCount(0);
    const bad = body.getByText('bad link');
    if (await bad.evaluate((el) => el.tagName === 'A')) await bad.click();
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    // New records are not confirmed yet: red text.
    const status = page.getByTestId('confirmed-status');
    await expect(status).toHaveText('Not Confirmed');
    expect(await status.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(176, 0, 32)');
    await expect(page.getByTestId('published-date')).toHaveText(/^Published [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    // The image, with alt text from the title, and the original's SHA-256.
    await expect(page.locator('.record-detail img[alt="Sample XSS test victim"]')).toBeVisible();
    await expect(page.getByTestId('sha256')).toHaveText(/^[0-9a-f]{64}$/);

    // Share links: the page URL and the share text with the hashtag.
    const url = new URL(page.url()).toString();
    const share = page.getByRole('region', { name: 'Share' });
    const hrefOf = async (name: string) => new URL((await share.getByRole('link', { name }).getAttribute('href'))!);
    const fb = await hrefOf('Share on Facebook');
    expect(fb.origin + fb.pathname).toBe('https://www.facebook.com/sharer/sharer.php');
    expect(fb.searchParams.get('u')).toBe(url);
    expect(fb.searchParams.get('quote')).toMatch(/^Ongoing genocide on Amhara people #Stop\w+$/);
    const x = await hrefOf('Share on X');
    expect(x.searchParams.get('url')).toBe(url);
    expect(x.searchParams.get('text')).toBe('Ongoing genocide on Amhara people');
    expect(x.searchParams.get('hashtags')).toMatch(/^Stop\w+$/);
    const tg = await hrefOf('Share on Telegram');
    expect(tg.origin + tg.pathname).toBe('https://t.me/share/url');
    expect(tg.searchParams.get('url')).toBe(url);
    expect(tg.searchParams.get('text')).toMatch(/^Ongoing genocide on Amhara people #Stop\w+$/);
    const wa = await hrefOf('Share on WhatsApp');
    expect(wa.origin).toBe('https://wa.me');
    expect(wa.searchParams.get('text')).toMatch(new RegExp(`^Ongoing genocide on Amhara people #Stop\\w+ ${url.replace(/[.?*+^$()[\]{}|\\/]/g, '\\$&')}$`));
    for (const name of ['Share on Facebook', 'Share on X', 'Share on Telegram', 'Share on WhatsApp']) {
      await expect(share.getByRole('link', { name })).toHaveAttribute('rel', 'noopener noreferrer');
    }
  });

  test('copy button reads "copied" for 3 seconds', async ({ page, context, request }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const res = await request.get(`${API}/links?limit=1`);
    const [link] = (await res.json()) as { _id: string }[];
    await page.goto(`/links/${link!._id}`);
    const button = page.getByTestId('copy-button');
    await expect(button).toHaveText('Copy link');
    // Timed in the page, from the click itself: the test's own clock reads the time only after click() returns, which
    // on a busy machine is later than the click, so the label seemed to revert early.
    await button.evaluate((element) => {
      const times = { clickedAt: 0, revertedAt: 0 };
      Object.assign(window, { copyTimes: times });
      element.addEventListener('click', () => (times.clickedAt = performance.now()), { capture: true });
      new MutationObserver(() => {
        if (times.clickedAt && !times.revertedAt && element.textContent === 'Copy link') times.revertedAt = performance.now();
      }).observe(element, { childList: true, characterData: true, subtree: true });
    });
    await button.click();
    const clickedAt = Date.now();
    await expect(button).toHaveText('copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
    await page.waitForTimeout(Math.max(0, 2600 - (Date.now() - clickedAt)));
    await expect(button).toHaveText('copied', { timeout: 100 });
    await expect(button).toHaveText('Copy link', { timeout: 1500 });
    const times = await page.evaluate(() => (window as unknown as { copyTimes: { clickedAt: number; revertedAt: number } }).copyTimes);
    expect(times.revertedAt - times.clickedAt).toBeGreaterThanOrEqual(3000);
    expect(times.revertedAt - times.clickedAt).toBeLessThan(4500);
  });

  test('massacre carousel: arrows hidden at the ends, n/total counter, keyboard', async ({ page, request }) => {
    const record = await createRecord(request, 'massacres', { title: 'Sample carousel massacre', description: 'Sample test record, not real data.' }, 3);
    await page.goto(`/massacres/${record._id}`);
    const carousel = page.getByRole('region', { name: 'Images' });
    const previous = carousel.getByRole('button', { name: 'Previous' });
    const next = carousel.getByRole('button', { name: 'Next' });
    await expect(page.getByTestId('carousel-counter')).toHaveText('1/3');
    await expect(previous).toHaveCount(0);
    await next.click();
    await expect(page.getByTestId('carousel-counter')).toHaveText('2/3');
    await expect(previous).toBeVisible();
    await next.click();
    await expect(page.getByTestId('carousel-counter')).toHaveText('3/3');
    await expect(next).toHaveCount(0);
    await carousel.focus();
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByTestId('carousel-counter')).toHaveText('2/3');
  });

  test('gallery and viewer: count in the title, arrows hidden at the first and last image', async ({ page, request }) => {
    await createRecord(request, 'orphans', { title: 'Sample gallery orphan', description: 'Sample test record, not real data.' }, 1);
    const n = await total(request, '/images');
    expect(n).toBeGreaterThanOrEqual(2);
    await page.goto('/images');
    await expect(page.getByTestId('page-title')).toHaveText(`Images (${n})`);
    await expect(page.getByTestId('gallery-thumb').first().locator('img')).toHaveAttribute('alt', /.+/);
    await page.getByTestId('gallery-thumb').first().click();
    await expect(page).toHaveURL(/\/images\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId('viewer-position')).toHaveText(`1/${n}`);
    await expect(page.getByTestId('viewer-previous')).toHaveCount(0);
    await expect(page.getByTestId('viewer-next')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Share' })).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('viewer-position')).toHaveText(`2/${n}`);
    await expect(page.getByTestId('viewer-previous')).toBeVisible();
    // The keys open the image's own page: its keys work once its islands have started.
    await appReady(page);
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByTestId('viewer-position')).toHaveText(`1/${n}`);
    // The last image: no right arrow.
    const last = (await (await request.get(`${API}/images?limit=1&offset=${n - 1}`)).json()) as { _id: string }[];
    await page.goto(`/images/${last[0]!._id}`);
    await expect(page.getByTestId('viewer-position')).toHaveText(`${n}/${n}`);
    await expect(page.getByTestId('viewer-next')).toHaveCount(0);
    await expect(page.getByTestId('viewer-previous')).toBeVisible();
  });

  test('a non-public massacre tells signed-out visitors so at its address, with the way to the list', async ({ page, request }) => {
    const record = await createRecord(request, 'massacres', { title: 'Sample private massacre', description: 'Sample test record, not real data.' });
    const res = await request.put(`${API}/massacres/${record._id}/access`, { headers: await auth(request) });
    expect(res.ok()).toBe(true);
    // The server's page, read as it arrives (issue 52 item 15); the app, where it runs, goes on to the list.
    await page.goto(`/massacres/${record._id}`);
    await expect(page.getByText(/That record is not public, or its address is wrong/)).toBeVisible();
    await page.getByRole('link', { name: 'Back to Massacres' }).click();
    await expect(page).toHaveURL(/\/massacres$/);
    await expect(page.getByTestId('page-title')).toHaveText(/^Massacres \(\d+\)$/);
  });

  test('an unknown address and a missing record answer 404 with the site page; a private record 404s to crawlers', async ({ page, request }) => {
    const res = await page.goto('/no-such-page/anywhere');
    expect(res!.status()).toBe(404);
    await expect(page.getByText('This page does not exist.')).toBeVisible();
    await appReady(page);
    await expect(page.getByText('This page does not exist.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to the home page' })).toBeVisible();
    expect((await request.get('/victims/00000000-0000-4000-8000-000000000000')).status()).toBe(404);
    const record = await createRecord(request, 'massacres', { title: 'Sample private massacre (status)', description: 'Sample test record, not real data.' });
    expect((await request.get(`/massacres/${record._id}`)).status()).toBe(200);
    expect((await request.put(`${API}/massacres/${record._id}/access`, { headers: await auth(request) })).ok()).toBe(true);
    expect((await request.get(`/massacres/${record._id}`)).status()).toBe(404);
  });

  test('Amharic on a detail page: interface strings and an Ethiopian-calendar date', async ({ page, request }) => {
    const res = await request.get(`${API}/victims?limit=50`);
    const sample = ((await res.json()) as { _id: string; createdAt: string }[]).find((r) => r.createdAt.startsWith('2021-01-05'));
    expect(sample, 'a sample victim posted on 2021-01-05').toBeTruthy();
    await page.goto(`/victims/${sample!._id}`);
    await expect(page.getByTestId('published-date')).toHaveText('Published Jan 5, 2021');
    await page.getByRole('combobox', { name: 'Language' }).selectOption('am');
    const date = page.getByTestId('published-date');
    // 5 January 2021 is 27 Tahsas 2013 in the Ethiopian calendar.
    await expect(date).toContainText('2013');
    await expect(date).toContainText('27');
    await expect(date).not.toContainText('2021');
    await expect(date).toContainText('የታተመው');
    await expect(page.getByRole('region', { name: 'ያጋሩ' })).toBeVisible();
    await page.getByRole('combobox', { name: 'ቋንቋ' }).selectOption('en');
  });

  test('375px layout: lists, detail, gallery, home, search, statistics and map fit the screen', async ({ page, request }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    const [victim] = (await (await request.get(`${API}/victims?limit=1`)).json()) as { _id: string }[];
    const pages = ['/', '/victims', '/massacres?view=table', `/victims/${victim!._id}`, '/images', '/about', '/search?q=sample', '/statistics', '/map'];
    for (const path of pages) {
      await page.goto(path);
      await expect(page.getByTestId('page-title').first()).toBeAttached();
      await page.waitForLoadState('networkidle');
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, path).toBeLessThanOrEqual(375);
    }
    await page.goto('/victims');
    const card = page.getByTestId('record-card').first();
    const cardBox = await card.boundingBox();
    const imageBox = await card.locator('.card-image').boundingBox();
    // On phones the card stacks: the image takes the card's width.
    expect(imageBox!.width).toBeGreaterThan(cardBox!.width * 0.8);
  });

  test('accessibility: no serious or critical axe violations on home, a list, a detail and the gallery', async ({ page, request }) => {
    const [massacre] = (await (await request.get(`${API}/massacres?limit=1`)).json()) as { _id: string }[];
    for (const path of ['/', '/victims', '/massacres?view=table', `/massacres/${massacre!._id}`, '/images', '/about']) {
      await page.goto(path);
      await expect(page.getByTestId('page-title').first()).toBeAttached();
      await page.waitForLoadState('networkidle');
      await expectNoSeriousA11yViolations(page);
    }
  });
});
