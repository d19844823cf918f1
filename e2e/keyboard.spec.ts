import { readFileSync } from 'node:fs';
import { SUPER, apiSignIn, samplePngs } from './editor-helpers';
import { appReady, expect, test, type APIRequestContext, type Page } from './fixtures';

/**
 * The site by keyboard alone (issue 52 item 17): the open phone menu holds the focus, a carousel's arrows hand it on
 * at its ends, and a search sent from the keyboard leaves it on the results' heading. Records are labelled test data.
 * With SHOTS=<folder> each test also saves screenshots there (phone 375 px, desktop 1280 px).
 */
const PHONE = { width: 375, height: 800 };
const DESKTOP = { width: 1280, height: 900 };
const WORD = `quendrilt${Date.now().toString(36)}`;

async function shot(page: Page, name: string) {
  if (process.env.SHOTS) await page.screenshot({ path: `${process.env.SHOTS}/${name}.png` });
}

async function createWithImages(request: APIRequestContext, slug: 'massacres' | 'events', title: string, images: number) {
  const token = await apiSignIn(request, SUPER.email, SUPER.password);
  const form = new FormData();
  form.append('title', title);
  form.append('description', `Sample test record, not real data. ${WORD}`);
  // A full row of the massacres table (a later test reads its first row's every cell).
  if (slug === 'massacres') form.append('quantity', '1');
  for (const [i, file] of (await samplePngs(images)).entries()) {
    form.append('files[]', new Blob([new Uint8Array(readFileSync(file))], { type: 'image/png' }), `sample-${i}.png`);
  }
  const res = await request.post(`/api/v1.0.0/${slug}`, { headers: { authorization: `Bearer ${token}` }, multipart: form });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { _id: string })._id;
}

const focusedInside = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    return Boolean(active && (active.closest('#site-menu') || active.classList.contains('menu-toggle')));
  });

test.describe('by keyboard', () => {
  test('the open phone menu holds Tab and Shift+Tab inside it until it is closed', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto('/victims');
    const toggle = page.locator('.menu-toggle');
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('#site-menu')).toHaveClass(/is-open/);
    const reachable = await page.locator('#site-menu').locator('a[href], button, select').evaluateAll((els) => els.filter((el) => el.getClientRects().length > 0).length);
    // Around the menu and past its start again, forwards then backwards: never onto the page behind the backdrop.
    for (let i = 0; i < reachable + 3; i++) {
      await page.keyboard.press('Tab');
      expect(await focusedInside(page), `Tab ${i + 1} left the menu`).toBe(true);
    }
    await shot(page, 'menu-held-375');
    for (let i = 0; i < reachable + 3; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await focusedInside(page), `Shift+Tab ${i + 1} left the menu`).toBe(true);
    }
    // From the close button, backwards is the menu's last control, forwards its first.
    await toggle.focus();
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('#site-menu') !== null)).toBe(true);
    await page.keyboard.press('Escape');
    await expect(page.locator('#site-menu')).not.toHaveClass(/is-open/);
    await expect(toggle).toBeFocused();
    // Closed, Tab goes on to the page.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focusedInside(page)).toBe(false);
  });

  for (const slug of ['massacres', 'events'] as const) {
    test(`${slug} carousel: Enter on the last "Next" moves the focus to "Previous", and the arrow keys go on working`, async ({ page, request }) => {
      const id = await createWithImages(request, slug, `Sample keyboard carousel ${slug} (test data)`, 3);
      for (const size of [PHONE, DESKTOP]) {
        await page.setViewportSize(size);
        await page.goto(`/${slug}/${id}`);
        // The arrows answer keys once the page's islands have started (before that, Enter on one does nothing).
        await appReady(page);
        const carousel = page.getByRole('region', { name: 'Images' });
        const counter = page.getByTestId('carousel-counter');
        const next = carousel.getByRole('button', { name: 'Next' });
        const previous = carousel.getByRole('button', { name: 'Previous' });
        await next.focus();
        await page.keyboard.press('Enter');
        await expect(counter).toHaveText('2/3');
        await expect(next).toBeFocused();
        await page.keyboard.press('Enter');
        await expect(counter).toHaveText('3/3');
        await expect(next).toHaveCount(0);
        await expect(previous).toBeFocused();
        await shot(page, `${slug}-carousel-last-${size.width}`);
        await page.keyboard.press('ArrowLeft');
        await expect(counter).toHaveText('2/3');
        await page.keyboard.press('ArrowLeft');
        await expect(counter).toHaveText('1/3');
        await expect(previous).toHaveCount(0);
        await expect(next).toBeFocused();
        await page.keyboard.press('ArrowRight');
        await expect(counter).toHaveText('2/3');
        // As in the /images viewer, the keys also turn it while the focus is on nothing in particular.
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        await page.keyboard.press('ArrowRight');
        await expect(counter).toHaveText('3/3');
      }
    });
  }

  test("a search sent with Enter leaves the focus on the results' heading, and a ticked box keeps its own", async ({ page, request }) => {
    await createWithImages(request, 'massacres', 'Sample keyboard search massacre (test data)', 0);
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await page.goto('/search');
      const words = page.getByLabel('Words or names');
      await words.focus();
      await page.keyboard.type(WORD);
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(new RegExp(`/search\\?q=${WORD}$`));
      const heading = page.getByRole('heading', { name: /\d+ records? found/ });
      await expect(heading).toBeFocused();
      await shot(page, `search-focus-${size.width}`);
      if (size === DESKTOP) {
        // The filters island still gives a ticked facet its focus back on the next page.
        const box = page.getByTestId('facet-category').locator('input[type="checkbox"]').first();
        await box.focus();
        await page.keyboard.press('Space');
        await expect(page).toHaveURL(/category=/);
        await expect(page.getByTestId('facet-category').locator('input[type="checkbox"]:checked').first()).toBeFocused();
      }
    }
  });
});
