import { SUPER, apiSignIn } from './editor-helpers';
import { expect, test, type APIRequestContext } from './fixtures';

/**
 * The search page: words, two facets, a result and back, by mouse and by keyboard alone. Its records are invented
 * test data (made-up names and places), created through the API.
 */
const WORD = `zorblatt${Date.now().toString(36)}`;

async function createRecords(request: APIRequestContext) {
  const token = await apiSignIn(request, SUPER.email, SUPER.password);
  const make = async (title: string, region: string, victimizer: string) => {
    const res = await request.post('/api/v1.0.0/massacres', {
      headers: { authorization: `Bearer ${token}` },
      data: { title, caseNum: `E2E-${title.length}`, quantity: '1', description: `Test data, not a real record. ${WORD}`, region, victimizer },
    });
    expect(res.status(), await res.text()).toBe(201);
  };
  await make('Invented massacre at Velmor Crossing (test data)', 'amhara', 'Invented group Kappa');
  await make('Invented massacre at Dunrell Ford (test data)', 'amhara', 'Invented group Lambda');
  await make('Invented massacre at Quillow Bend (test data)', 'afar', 'Invented group Kappa');
}

test.describe('search', () => {
  test.beforeAll(async ({ request }) => createRecords(request));

  test('search, pick two facets, open a result, go back to the same filters', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Search', exact: true }).first().click();
    await expect(page).toHaveURL(/\/search$/);
    await page.getByLabel('Words or names').fill(WORD);
    await page.getByLabel('Words or names').press('Enter');
    await expect(page.getByTestId('search-total')).toHaveText('3 records found');

    await page.getByTestId('facet-region').getByLabel(/Amhara/).check();
    await expect(page.getByTestId('search-total')).toHaveText('2 records found');
    await page.getByTestId('facet-victimizer').getByLabel(/Invented group Kappa/).check();
    await expect(page.getByTestId('search-total')).toHaveText('1 record found');
    await expect(page).toHaveURL(/region=amhara/);
    await expect(page).toHaveURL(/victimizer=Invented\+group\+Kappa/);
    const download = page.getByTestId('search-download').getByRole('link', { name: 'CSV', exact: true });
    await expect(download).toHaveAttribute('href', /export\.csv\?q=.*region=amhara.*victimizer=Invented/);

    await page.getByRole('heading', { name: /Velmor Crossing/ }).getByRole('link').click();
    await expect(page).toHaveURL(/\/massacres\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { name: /Velmor Crossing/ }).first()).toBeVisible();
    await page.goBack();
    await expect(page.getByTestId('search-total')).toHaveText('1 record found');
    await expect(page.getByLabel('Words or names')).toHaveValue(WORD);
    await expect(page.getByTestId('facet-region').getByLabel(/Amhara/)).toBeChecked();
    await expect(page.getByTestId('facet-victimizer').getByLabel(/Invented group Kappa/)).toBeChecked();
  });

  test('the server renders a shared search link before the app starts', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`/search?q=${WORD}&region=afar`);
    await expect(page.getByTestId('search-total')).toHaveText('1 record found');
    await expect(page.getByRole('heading', { name: /Quillow Bend/ }).getByRole('link')).toBeVisible();
    await context.close();
  });

  test('facets by keyboard alone', async ({ page }) => {
    await page.goto(`/search?q=${WORD}`);
    await expect(page.getByTestId('search-total')).toHaveText('3 records found');
    const afar = page.getByTestId('facet-region').getByLabel(/Afar/);
    // Tab from the words box until the Afar box has the focus, as a keyboard user would.
    await page.getByLabel('Words or names').focus();
    for (let i = 0; i < 40 && !(await afar.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await expect(afar).toBeFocused();
    await page.keyboard.press('Space');
    await expect(page.getByTestId('search-total')).toHaveText('1 record found');
    await expect(afar).toBeChecked();
    await expect(afar).toBeFocused();
    await page.keyboard.press('Space');
    await expect(page.getByTestId('search-total')).toHaveText('3 records found');
    await expect(afar).not.toBeChecked();
  });
});
