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

test('a merge says what moves, its buttons name the record kept, and the old address says it was merged', async ({ page, request }) => {
  const shots = '/tmp/h52merge-shots';
  const author = await createContributor(request, 'dupes-witness');
  const { token } = await createAdmin(request, 'dupes-merger');
  const testimony = { kind: 'witness', title: 'Testimony of sample witness (test data)', note: 'Sample witness details (test data)', withheld: true };
  const merged = await apiCreate(request, author.token, 'victims', {
    title: 'Sample merged person (test data)',
    fullName: 'ከበደ ናሙናዊ',
    description: 'Test data, not a real person.',
    sources: JSON.stringify([testimony]),
  });
  const kept = await apiCreate(request, token, 'victims', { title: 'Sample kept person (test data)', fullName: 'Kebede Namunawi', description: 'Test data.' });
  await useToken(page, token);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/admin/duplicates');
    const pair = page.getByTestId('duplicate-pair').filter({ has: page.locator(`a[href="/victims/${merged._id}"]`) });
    await expect(pair).toContainText('1 withheld testimony');
    await pair.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/duplicates-${width}.png` });
  }
  const pair = page.getByTestId('duplicate-pair').filter({ has: page.locator(`a[href="/victims/${merged._id}"]`) });
  const keep = pair.getByRole('button', { name: /^Merge, keep the (first|second): pair \d+, keep Kebede Namunawi \(Victim\) and merge ከበደ ናሙናዊ \(Victim\) into it$/ });
  await expect(keep).toHaveCount(1);
  let question = '';
  page.once('dialog', (dialog) => {
    question = dialog.message();
    void dialog.accept();
  });
  await keep.click();
  await expect(page.getByRole('status').filter({ hasText: 'Merged.' })).toBeVisible();
  expect(question).toContain('Moving to the kept record: 0 files, 1 source.');
  expect(question).toContain('stays readable only by its author and the staff');

  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/victims/${merged._id}`);
    await expect(page).toHaveURL(`/victims/${kept._id}?merged=1`);
    await expect(page.getByText('Another record of this person was merged into this one')).toBeVisible();
    await page.screenshot({ path: `${shots}/merged-notice-${width}.png` });
  }
  // The kept page's own address says nothing of it.
  await page.goto(`/victims/${kept._id}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('Another record of this person was merged into this one')).toHaveCount(0);
});
