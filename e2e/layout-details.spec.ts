import { SUPER, apiSignIn } from './editor-helpers';
import { expect, test, type Page } from './fixtures';

/**
 * Small layout faults a look in the browser found (issue 52 item 20), at a phone's 375 px and a desktop's 1280 px.
 * With SHOTS=<folder> each test also saves screenshots there.
 */
const SIZES = [
  { width: 375, height: 800 },
  { width: 1280, height: 900 },
];

async function shot(page: Page, name: string) {
  if (process.env.SHOTS) await page.screenshot({ path: `${process.env.SHOTS}/${name}.png` });
}

/** An address whose parts (between its slashes, dots and hyphens) are words, so a break inside one splits a word. */
const EVIDENCE = 'https://evidence.example.org/sample-testimonies/invented-incident-documentation-archive/witness-statements-collection-volume-one';

test.describe('layout details', () => {
  test('the massacres table wraps an evidence link between its parts, never inside a word', async ({ page, request }) => {
    const token = await apiSignIn(request, SUPER.email, SUPER.password);
    const res = await request.post('/api/v1.0.0/massacres', {
      headers: { authorization: `Bearer ${token}` },
      data: { title: 'Sample evidence wrapping massacre (test data)', caseNum: 'TEST-WRAP-1', quantity: '1', description: 'Sample test record, not real data.', evidence: EVIDENCE },
    });
    expect(res.status(), await res.text()).toBe(201);
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.goto('/massacres?view=table');
      const link = page.locator('.massacre-table a', { hasText: 'witness' }).first();
      await expect(link).toBeVisible();
      await link.scrollIntoViewIfNeeded();
      // Each part of the address, measured as laid out: on one line each (its rectangles all at one height).
      const split = await link.evaluate((a) => {
        const text = a.textContent ?? '';
        // After a slash or a hyphen (the browser's own break), before a dot, a hyphen or the query's signs.
        const parts = text.split(/(?<=[/-])(?!\/)|(?=[.\-_?#&=+~])/);
        const walker = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
        const nodes: Text[] = [];
        while (walker.nextNode()) nodes.push(walker.currentNode as Text);
        // Where each character of the link's text is, so a part can be measured across text nodes.
        const at: { node: Text; offset: number }[] = [];
        for (const node of nodes) for (let i = 0; i < node.length; i++) at.push({ node, offset: i });
        const broken: string[] = [];
        let start = 0;
        for (const part of parts) {
          const range = document.createRange();
          range.setStart(at[start]!.node, at[start]!.offset);
          const end = at[start + part.length - 1]!;
          range.setEnd(end.node, end.offset + 1);
          const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (tops.size > 1) broken.push(part);
          start += part.length;
        }
        const lines = new Set([...a.getClientRects()].map((r) => Math.round(r.top))).size;
        return { text, broken, lines };
      });
      expect(split.text).toBe(EVIDENCE);
      expect(split.broken, `parts broken at ${size.width} px`).toEqual([]);
      if (size.width === 375) expect(split.lines).toBeGreaterThan(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await shot(page, `massacres-table-evidence-${size.width}`);
    }
  });

  test("the campaign's search hint is shown whole on a phone", async ({ page }) => {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.goto('/');
      await page.locator('#home-campaign-title').scrollIntoViewIfNeeded();
      const box = page.getByRole('combobox', { name: 'Find your representative' });
      await box.scrollIntoViewIfNeeded();
      const hint = page.getByText("Type your riding, electorate or member's name");
      await expect(hint).toBeVisible();
      await expect(box).toHaveAccessibleDescription("Type your riding, electorate or member's name");
      // Whole: not cut by its box, and inside the screen.
      expect(await hint.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= window.innerWidth)).toBe(true);
      await shot(page, `campaign-hint-${size.width}`);
    }
  });
});
