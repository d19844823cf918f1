import { mkdirSync } from 'node:fs';
import { expect, test } from './fixtures';
import { createContributor, useToken } from './editor-helpers';

/** Issue 57: upload -> mapping -> problems -> commit -> progress -> records in the list. Made-up names, sample data. */
test('a contributor imports a semicolon CSV: corrects the mapping, sees the problems, writes the rows', async ({ page, request }) => {
  const shots = '/tmp/h57-import-shots';
  mkdirSync(shots, { recursive: true });
  const { token } = await createContributor(request, 'importer');
  const tag = Date.now().toString(36);
  const csv = [
    'Name;Woreda;Date;Description',
    `Sample Imported Person ${tag} Alpha;Sample woreda;04/03/2021;Sample description (test data)`,
    `Sample Imported Person ${tag} Beta;Sample woreda;25/06/2013 ዓ.ም.;Sample description (test data)`,
    `Sample Imported Person ${tag} Gamma;Sample woreda;31/02/2021;Sample description (test data)`,
  ].join('\r\n');
  await useToken(page, token);
  await page.goto('/admin/imports');
  await page.getByLabel('Records of').selectOption('victims');
  await page.getByLabel('File').setInputFiles({ name: 'sample-list.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${csv}`) });
  await page.getByRole('button', { name: 'Check the file' }).click();
  // "Name" is no field's header: every row lacks its title until the mapping says which column it is.
  await expect(page.getByTestId('import-summary')).toContainText('3 rows: 0 ready');
  await page.getByLabel('Title *').selectOption('Name');
  await page.getByLabel('Full name', { exact: true }).selectOption('Name');
  await page.getByLabel('Killing date and time', { exact: true }).selectOption('Date');
  await page.getByRole('button', { name: 'Check again with this mapping' }).click();
  await expect(page.getByTestId('import-summary')).toContainText('3 rows: 2 ready, 1 problems');
  const problems = page.getByTestId('import-problems');
  await expect(problems).toContainText('Killing date and time');
  await expect(problems.getByRole('row').nth(1)).toContainText('4');
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${shots}/check-${width}.png`, fullPage: true });
  }
  await page.getByRole('button', { name: 'Write 2 records' }).click();
  await expect(page.getByTestId('import-counts')).toContainText('3 of 3 rows: 2 written, 0 skipped, 1 not written', { timeout: 30_000 });
  await expect(page.getByTestId('import-progress-bar')).toHaveAttribute('value', '3');
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${shots}/done-${width}.png`, fullPage: true });
  }
  await page.getByTestId('import-records-link').click();
  await expect(page).toHaveURL(/\/victims$/);
  await expect(page.getByText(`Sample Imported Person ${tag} Alpha`).first()).toBeVisible();
  await expect(page.getByText(`Sample Imported Person ${tag} Beta`).first()).toBeVisible();
});
