import { apiCreate, apiSignIn, SUPER } from './editor-helpers';
import { expect, test, type Page } from './fixtures';

/**
 * Issue 52: what the reading pages showed on a machine without an Ethiopic font and on a phone. Ge'ez in every kind
 * of element drawn in the site's Noto Sans Ethiopic, compact search hits, the account pages' message, the home page
 * holding still while the campaign form arrives. Records made here are labelled test data ("የሙከራ" is "test").
 */
const PHONE = { width: 375, height: 812 };

/** Ge'ez letters (the Ethiopic blocks the site's face covers). */
const GEEZ = /[\u1200-\u139f\u2d80-\u2ddf\uab00-\uab2f]/gu;
const geezLetters = (text: string) => (text.match(GEEZ) ?? []).length;

/**
 * The fonts the browser drew `selector`'s text with, as it reports them (CDP CSS.getPlatformFontsForNode): the
 * platform's own answer, not the CSS asked for. A form field's text is drawn inside its shadow tree.
 */
async function fontsDrawing(page: Page, selector: string): Promise<{ familyName: string; glyphCount: number }[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  type DomNode = { nodeId: number; nodeType: number; children?: DomNode[]; shadowRoots?: DomNode[] };
  const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: DomNode };
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  expect(nodeId, selector).toBeGreaterThan(0);
  const find = (node: DomNode): DomNode | null => {
    if (node.nodeId === nodeId) return node;
    for (const child of [...(node.children ?? []), ...(node.shadowRoots ?? [])]) {
      const found = find(child);
      if (found) return found;
    }
    return null;
  };
  type Font = { familyName: string; glyphCount: number };
  const fontsOf = async (id: number) => ((await cdp.send('CSS.getPlatformFontsForNode', { nodeId: id })) as { fonts: Font[] }).fonts;
  const node = find(root)!;
  let fonts = await fontsOf(node.nodeId);
  if (node.shadowRoots?.length) {
    // The element of the shadow tree that draws the most letters: the field's text, not its clear button.
    const inside: DomNode[] = [];
    const walk = (n: DomNode) => {
      if (n.nodeType === 1) inside.push(n);
      for (const child of [...(n.children ?? []), ...(n.shadowRoots ?? [])]) walk(child);
    };
    walk(node.shadowRoots[0]!);
    const glyphs = (list: Font[]) => list.reduce((sum, f) => sum + f.glyphCount, 0);
    for (const element of inside) {
      const drawn = await fontsOf(element.nodeId);
      if (glyphs(drawn) > glyphs(fonts)) fonts = drawn;
    }
  }
  await cdp.detach();
  return fonts;
}

/** Every Ge'ez letter of `selector`'s text is drawn in Noto Sans Ethiopic (the site's copy, or the system's own). */
async function expectGeezInSiteFace(page: Page, selector: string, text: string) {
  await page.evaluate(() => document.fonts.ready);
  await expect
    .poll(async () => (await fontsDrawing(page, selector)).find((f) => f.familyName === 'Noto Sans Ethiopic')?.glyphCount ?? 0, { message: selector })
    .toBe(geezLetters(text));
}

test.describe('reading pages', () => {
  test("Ge'ez is drawn in the site's Ethiopic face in a card title and subtitle, a heading, a table cell, a search field and a search hit", async ({ page, request }) => {
    const token = await apiSignIn(request, SUPER.email, SUPER.password);
    // Words of Ge'ez alone: a title mixing Latin letters was drawn right.
    const word = `የሙከራ${'ሀለሐመሠረሰቀበተ'.split('').sort(() => Math.random() - 0.5).join('').slice(0, 4)}`;
    const title = `${word} ተጠቂ ስም`;
    const subtitle = 'የሙከራ ንዑስ ርዕስ';
    const victim = await apiCreate(request, token, 'victims', { title, subtitle, description: 'የሙከራ መግለጫ (test data).' });
    const place = 'የሙከራ ቦታ';
    const massacre = await apiCreate(request, token, 'massacres', { title: `${word} ጭፍጨፋ`, description: 'የሙከራ (test data).', location: place, caseNum: 'TEST-GEEZ-1' });

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/victims');
    await expectGeezInSiteFace(page, `.card-title a[href="/victims/${victim._id}"]`, title);
    await expectGeezInSiteFace(page, `article:has(a[href="/victims/${victim._id}"]) .card-subtitle`, subtitle);

    await page.goto(`/victims/${victim._id}`);
    await expectGeezInSiteFace(page, 'h1.detail-title', title);

    await page.goto('/massacres?view=table');
    const cell = `.massacre-table tr:has(a[href="/massacres/${massacre._id}"]) td[data-label="Location"]`;
    await expect(page.locator(cell)).toHaveText(place);
    await expectGeezInSiteFace(page, cell, place);

    await page.goto(`/search?q=${encodeURIComponent(word)}`);
    await expect(page.getByTestId('search-total')).toHaveText('2 records found');
    await expectGeezInSiteFace(page, '#search-q', word);
    await expectGeezInSiteFace(page, `.hit-title a[href="/victims/${victim._id}"]`, title);
  });

  test('search hits on a phone are compact: three titles on the first screen, each with its facts, snippet and a small thumbnail', async ({ page, request }) => {
    // Records of this test alone, with titles of an ordinary length: the suite's other records have long ones.
    const token = await apiSignIn(request, SUPER.email, SUPER.password);
    const word = `hitlayout${Date.now().toString(36)}`;
    for (const n of [1, 2, 3]) {
      await apiCreate(request, token, 'victims', { title: `Sample victim ${n} (test data)`, fullName: `Sample Person ${n}`, description: `Sample ${word} record, test data, not a real person.` });
    }
    await page.setViewportSize(PHONE);
    await page.goto(`/search?q=${word}`);
    const hits = page.getByTestId('search-hit');
    await expect(hits.nth(2)).toBeVisible();
    for (let i = 0; i < 3; i++) {
      const titleBox = (await hits.nth(i).getByRole('heading', { level: 2 }).boundingBox())!;
      expect(titleBox.y + titleBox.height, `hit ${i + 1}'s title`).toBeLessThanOrEqual(PHONE.height);
    }
    const first = hits.first();
    await expect(first.locator('.hit-meta')).toContainText(/Victim|Orphan|Massacre|Missing|Displaced|Event|Video|Link|Education/);
    await expect(first.locator('.search-snippet mark').first()).toHaveText(new RegExp(word, 'i'));
    // The sample records carry images: a hit's thumbnail is small.
    await page.goto('/search?q=sample');
    const thumb = (await page.locator('.hit-thumb img').first().boundingBox())!;
    expect(thumb.width).toBeLessThanOrEqual(80);
  });

  test('the pages sign-up and "forgot password" land on say their message as text, not only as a hidden heading', async ({ page }) => {
    for (const [address, message, next] of [
      ['/activation-message', 'An activation link has been sent to your email', /activate your account/],
      ['/check-email', 'A password reset link has been sent, check your email', /choose a new password/],
    ] as const) {
      await page.goto(address);
      // Nine words: the heading rule hides the title (kept for screen readers)...
      await expect(page.getByTestId('page-title')).toHaveClass(/visually-hidden/);
      // ...and the message is the page's text.
      const text = page.getByTestId('account-message');
      await expect(text.getByText(message, { exact: true })).toBeVisible();
      expect((await text.getByText(message, { exact: true }).boundingBox())!.height, address).toBeGreaterThan(16);
      await expect(text).toContainText(next);
    }
  });

  test('the home page holds still on a phone while the campaign form arrives (layout shift under 0.1)', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.addInitScript(() => {
      const win = window as unknown as { shifted: number };
      win.shifted = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) if (!entry.hadRecentInput) win.shifted += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto('/');
    // Read down the page as a reader does, past the campaign section.
    for (let step = 0; step < 12; step++) {
      await page.mouse.wheel(0, 300);
      await page.waitForTimeout(120);
    }
    await expect(page.locator('.home-campaign form')).toBeVisible();
    await page.waitForTimeout(500);
    const shifted = await page.evaluate(() => (window as unknown as { shifted: number }).shifted);
    expect(shifted).toBeLessThan(0.1);
  });
});

test.describe('page names and pages past the end', () => {
  test('the browser tab names the page on the pages the server renders, read without JavaScript', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const reader = await context.newPage();
    for (const [address, name] of [
      ['/reports', 'Reports'],
      ['/search?q=sample', 'Search records'],
      ['/statistics', 'Statistics'],
      ['/map', 'Map'],
      ['/export', 'Download the data'],
      ['/nowhere-at-all', 'Page not found'],
    ] as const) {
      await reader.goto(address);
      await expect(reader, address).toHaveTitle(new RegExp(`^${name} \\| `));
    }
    await context.close();
  });

  test('a page past the end of a list is answered 404 and says how far the list goes, with a link to its last page', async ({ page, request }) => {
    const answer = await request.get('/victims?page=99');
    expect(answer.status()).toBe(404);
    await page.goto('/victims?page=99');
    const pager = page.getByRole('navigation', { name: 'Pages' });
    await expect(pager).toContainText(/There is no page 99: this list has \d+ pages?\./);
    await expect(pager).not.toContainText('Page 99 of');
    await pager.getByRole('link', { name: 'Last page' }).click();
    await expect(page.getByTestId('record-card').first()).toBeVisible();
  });
});
