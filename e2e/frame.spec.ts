import { expect, test } from './fixtures';

test.describe('frame', () => {
  test('header menu links, footer year and title rule', async ({ page }) => {
    await page.goto('/');
    const menu = page.getByRole('navigation', { name: 'Menu' });
    await expect(menu.getByRole('link', { name: 'About' })).toHaveAttribute('href', '/about');
    await expect(menu.getByRole('link', { name: 'Events' })).toHaveAttribute('href', '/events');
    await expect(menu.getByRole('link', { name: 'Sign In' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
    await expect(page.getByTestId('copyright')).toContainText(String(new Date().getFullYear()));

    await menu.getByRole('link', { name: 'About' }).click();
    await expect(page).toHaveURL(/\/about$/);
    // "About" has fewer than 5 words: shown as a heading.
    await expect(page.getByTestId('page-title')).toBeVisible();
    // "An activation link has been sent to your email" has 9 words: not shown as a heading (still in the document
    // for screen readers).
    await page.goto('/activation-message');
    await expect(page.getByTestId('page-title')).toHaveClass(/visually-hidden/);
    await expect(page).toHaveTitle(/An activation link has been sent to your email/);
  });

  test('every route of the spec renders inside the frame', async ({ page }) => {
    const routes = [
      '/', '/about', '/images', '/images/x', '/victims', '/victims/x', '/massacres', '/massacres/x', '/videos',
      '/displacements', '/orphans', '/links', '/missings', '/events', '/events/x', '/educations', '/signup', '/signin',
      '/forgotpassword', '/resetpassword/x', '/activation-message', '/check-email', '/reports',
    ];
    for (const route of routes) {
      await page.goto(route);
      await expect(page.locator('header.site-header'), route).toBeVisible();
      await expect(page.locator('footer.site-footer'), route).toBeVisible();
      await expect(page.getByTestId('page-title').first(), route).toBeAttached();
    }
  });

  test('guarded routes send signed-out visitors to /signin', async ({ page }) => {
    for (const route of ['/dashboard', '/victims/edit/x', '/events/edit/x', '/images/edit/x']) {
      await page.goto(route);
      await expect(page, route).toHaveURL(/\/signin\?next=/);
    }
  });

  test('slide-in menu panel at 375px', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Menu' });
    const about = page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'About' });
    await expect(about).toBeHidden();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(about).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(about).toBeHidden();
    await toggle.click();
    await about.click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(about).toBeHidden();
  });

  test('language switch changes the interface and is remembered', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('combobox', { name: 'Language' }).selectOption('am');
    await expect(page.getByRole('navigation').getByRole('link', { name: 'ስለ እኛ' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'am');
    await page.reload();
    await expect(page.getByRole('navigation').getByRole('link', { name: 'ስለ እኛ' })).toBeVisible();
    await page.getByRole('combobox', { name: 'ቋንቋ' }).selectOption('en');
    await expect(page.getByRole('navigation').getByRole('link', { name: 'About' })).toBeVisible();
  });
});
