import { parse } from 'csv-parse/sync';
import { expect, test, type Page } from './fixtures';

/**
 * The field-format files (issue 52 item 18): /export and the search page offer incidents.csv, people.csv and the HDX
 * file, each with a line on what it is for, at a phone's width and a desktop's. SHOTS_DIR, when set, keeps
 * screenshots of the pages. The site's records are its sample content.
 */
const overflowsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
const shot = async (page: Page, name: string) => {
  if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/${name}.png`, fullPage: true });
};

for (const width of [375, 1280]) {
  test(`/export offers incidents.csv, people.csv and the HDX file, each said what for (${width} px)`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/export?region=amhara');
    const files = [
      ['export-incidents', 'Incidents (ACLED columns)', 'event_id'],
      ['export-people', 'People', 'person_id'],
      ['export-hdx', 'Incidents for HDX (HXL hashtags)', 'event_id'],
    ] as const;
    await expect(page.getByText('a search does not narrow them')).toBeVisible();
    for (const [testId, name, firstColumn] of files) {
      const line = page.getByTestId(testId);
      await expect(line.locator('span')).not.toBeEmpty();
      const href = await line.getByRole('link', { name, exact: true }).getAttribute('href');
      const res = await request.get(href!);
      expect(res.status()).toBe(200);
      const rows = parse(await res.text(), { bom: true }) as string[][];
      expect(rows[0]![0]).toBe(firstColumn);
      if (testId === 'export-hdx') expect(rows[1]![0]).toBe('#event+id');
    }
    expect(await overflowsSideways(page)).toBe(false);
    await shot(page, `export-${width}`);

    await page.goto('/search?q=sample');
    const field = page.getByTestId('search-download-field');
    await expect(field).toContainText("Every record, in the field's formats");
    await expect(field.getByRole('link', { name: 'Incidents (ACLED columns)' })).toHaveAttribute('href', '/api/v1.0.0/export/incidents.csv');
    await expect(field.getByRole('link', { name: 'People', exact: true })).toHaveAttribute('href', '/api/v1.0.0/export/people.csv');
    expect(await overflowsSideways(page)).toBe(false);
    await field.scrollIntoViewIfNeeded();
    if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/search-downloads-${width}.png` });
  });
}
