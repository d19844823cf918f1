import { test as base, type Page } from '@playwright/test';

export { expect } from '@playwright/test';
export type { APIRequestContext, Page } from '@playwright/test';

/** Resolves once the app has taken over the page (main.tsx marks <html data-app="ready">). */
export async function appReady(page: Page): Promise<void> {
  await page.locator('html[data-app="ready"]').waitFor({ state: 'attached' });
}

/**
 * Goes to `path` inside the running app, as its links and the back button do: the screen's data is then fetched by
 * the browser (a first page load gets it from the server's HTML instead). A popstate is what the router listens to.
 */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/**
 * Public pages arrive rendered by the server and readable before the app has started, so a test that clicked a
 * button straight after loading could click the server's HTML before it works. Here every `goto` and `reload` of
 * the test's page waits until the app has taken over, as a visitor's first click does in practice.
 */
export const test = base.extend({
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      await appReady(page);
      return response;
    };
    page.reload = async (options) => {
      const response = await reload(options);
      await appReady(page);
      return response;
    };
    await use(page);
  },
});
