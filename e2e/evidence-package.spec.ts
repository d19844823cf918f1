import { expect, test } from './fixtures';
import { apiCreate, createAdmin, createContributor, useToken } from './editor-helpers';

/** The record page's evidence package download (issue 59): staff only, a ZIP, the withheld one asked again. */
test.describe('evidence package download', () => {
  let admin = { token: '', id: '' };
  let contributor = { token: '', id: '', email: '' };
  test.beforeAll(async ({ request }) => {
    admin = await createAdmin(request, 'package-admin');
    contributor = await createContributor(request, 'package-contributor');
  });

  test('staff download the package; the withheld one is confirmed first; contributors see no button', async ({ page, request }, info) => {
    const record = await apiCreate(request, admin.token, 'massacres', { title: 'Sample massacre for a package (test only)', description: 'Sample.' });
    await useToken(page, admin.token);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/massacres/${record._id}`);
      const button = page.getByRole('button', { name: 'Download evidence package' });
      await expect(button).toBeVisible();
      await page.screenshot({ path: info.outputPath(`evidence-package-${width}.png`), fullPage: false });
    }
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download evidence package' }).click()]);
    expect(download.suggestedFilename()).toBe(`evidence-massacres-${record._id}.zip`);
    const dismissed = page.waitForEvent('dialog').then((dialog) => dialog.dismiss());
    await page.getByRole('button', { name: 'With withheld testimony' }).click();
    await dismissed;
    await useToken(page, contributor.token);
    await page.goto(`/massacres/${record._id}`);
    await expect(page.getByRole('heading', { name: 'Sample massacre for a package (test only)' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Download evidence package' })).toHaveCount(0);
  });
});
