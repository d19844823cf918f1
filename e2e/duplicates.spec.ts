import { expect, test } from './fixtures';
import { apiCreate, createAdmin, createContributor, useToken } from './editor-helpers';

/** Duplicate people: the add form warns, before saving, of a record that may be the same person. Test names only. */
test('adding a victim shows a likely duplicate before saving (Latin name against a Ge\'ez one)', async ({ page, request }) => {
  const { token } = await createContributor(request, 'dupes');
  const stored = await apiCreate(request, token, 'victims', {
    title: 'Sample victim for the duplicate check (test data)',
    fullName: 'ተስፋዬ ሙከራ',
    woreda: 'Sample woreda',
    description: 'Test data, not a real person.',
  });
  await useToken(page, token);
  await page.goto('/dashboard');
  await page.getByLabel('Category').selectOption({ label: 'Victim' });
  await page.getByLabel('Full name', { exact: true }).fill('Tesfaye Mukera');
  const warning = page.getByRole('status').filter({ hasText: 'Possibly already recorded' });
  await expect(warning).toBeVisible();
  const link = warning.getByRole('link', { name: 'ተስፋዬ ሙከራ' });
  await expect(link).toHaveAttribute('href', `/victims/${stored._id}`);
  await expect(warning).toContainText('similar name');
  // Another name: the warning goes.
  await page.getByLabel('Full name', { exact: true }).fill('Almaz Namuna');
  await expect(page.getByText('Possibly already recorded')).toHaveCount(0);
});

test('an admin sees the pair among the possible duplicates', async ({ page, request }) => {
  const { token } = await createAdmin(request, 'dupes-admin');
  const first = await apiCreate(request, token, 'victims', { title: 'Sample pair one (test data)', fullName: 'ጌታቸው ናሙና', description: 'Test data.' });
  await apiCreate(request, token, 'victims', { title: 'Sample pair two (test data)', fullName: 'Getachew Namuna', description: 'Test data.' });
  await useToken(page, token);
  await page.goto('/admin/duplicates');
  const pair = page.getByTestId('duplicate-pair').filter({ has: page.locator(`a[href="/victims/${first._id}"]`) });
  await expect(pair).toBeVisible();
  await expect(pair).toContainText('similar name');
});
