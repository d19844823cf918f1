import { expect, test } from './fixtures';
import { apiCreate, apiSignIn, createAdmin, createContributor, SUPER, sampleMp4, useToken } from './editor-helpers';

/** Validation, permissions, approval, access, trash and audit as editors see them. */
test.describe('editor review screens', () => {
  let contributor = { token: '', id: '', email: '' };
  let admin = { token: '', id: '' };
  let superToken = '';
  test.beforeAll(async ({ request }) => {
    contributor = await createContributor(request, 'review-contributor');
    admin = await createAdmin(request, 'review-admin');
    superToken = await apiSignIn(request, SUPER.email, SUPER.password);
  });

  test('a server validation error appears under its field and the input stays', async ({ page }) => {
    await useToken(page, contributor.token);
    await page.goto('/dashboard');
    await page.getByLabel('Category').selectOption({ label: 'Massacre' });
    await page.getByLabel('Title', { exact: true }).fill('Sample invalid massacre (test only)');
    await page.getByLabel('Description', { exact: true }).fill('Sample description (test only).');
    await page.getByLabel('Number of people killed').fill('-3');
    await page.getByLabel('Evidence links').fill('javascript:x');
    await expect(page.getByText('Separate evidence links with a comma and one space.')).toBeVisible();
    await page.getByRole('button', { name: 'Submit' }).click();
    const evidence = page.getByLabel('Evidence links');
    await expect(evidence).toHaveAttribute('aria-invalid', 'true');
    const describedBy = (await evidence.getAttribute('aria-describedby')) ?? '';
    const errorId = describedBy.split(' ').find((id) => id.endsWith('-error'))!;
    await expect(page.locator(`[id="${errorId}"]`)).toContainText(/http/);
    await expect(evidence).toHaveValue('javascript:x');
    await expect(page.getByLabel('Title', { exact: true })).toHaveValue('Sample invalid massacre (test only)');
    await expect(page.getByRole('alert').first()).toContainText('Saving failed');
    await expect(page).toHaveURL(/\/dashboard\?category=massacres$/);
  });

  test('a contributor sees no approve or lock and cannot edit another editor’s record', async ({ page, request }) => {
    const other = await apiCreate(request, superToken, 'events', { title: 'Sample event of the super (test only)', description: 'Sample.' });
    await useToken(page, contributor.token);
    await page.goto(`/events/${other._id}`);
    await expect(page.getByRole('heading', { name: 'Sample event of the super (test only)' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /make private|make public/ })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
    const crafted = await request.put(`/api/v1.0.0/events/${other._id}/edit`, {
      multipart: { title: 'Changed by a contributor' },
      headers: { authorization: `Bearer ${contributor.token}` },
    });
    expect(crafted.status()).toBe(403);
  });

  test('an admin approves a record, makes an event private, trashes and restores; the audit page lists it', async ({ page, browser, request }) => {
    const victim = await apiCreate(request, contributor.token, 'victims', { title: 'Sample victim to approve (test only)', description: 'Sample.' });
    await useToken(page, admin.token);
    await page.goto(`/victims/${victim._id}`);
    const status = page.getByTestId('confirmed-status');
    await expect(status).toHaveText('Not Confirmed');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('Approved.')).toBeVisible();
    await expect(status).toHaveText(/^\W*Confirmed$/);
    await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);

    const event = await apiCreate(request, contributor.token, 'events', { title: 'Sample event to hide (test only)', description: 'Sample.' });
    await page.goto(`/events/${event._id}`);
    await page.getByRole('button', { name: 'Public: make private' }).click();
    await expect(page.getByText('The record is now private.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Private: make public' })).toBeVisible();
    // A signed-out visitor reads, at once and from the server, that the record is not public, with the way to the list.
    const visitor = await browser.newPage();
    const answer = await visitor.goto(`/events/${event._id}`);
    expect(answer?.status()).toBe(404);
    await expect(visitor.getByText('That record is not public, or its address is wrong.')).toBeVisible();
    await expect(visitor.getByText('Sample event to hide (test only)')).toHaveCount(0);
    await visitor.getByRole('link', { name: 'Back to Events' }).click();
    await expect(visitor).toHaveURL(/\/events$/);
    await visitor.close();
    // The server renders pages as a signed-out visitor reads them: the private record is in none.
    for (const address of ['/events', `/events/${event._id}`]) {
      const html = await (await request.get(address)).text();
      expect(html).toContain('id="root"><header');
      expect(html).not.toContain('Sample event to hide (test only)');
    }

    await page.goto(`/victims/${victim._id}`);
    page.once('dialog', (d) => {
      expect(d.message()).toContain('trash');
      void d.accept();
    });
    await page.getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/victims$/);
    await page.goto('/admin/trash');
    await page.getByRole('button', { name: 'Restore: Sample victim to approve (test only)' }).click();
    await expect(page.getByText('Restored.')).toBeVisible();
    await page.goto(`/victims/${victim._id}`);
    await expect(page.getByRole('heading', { name: 'Sample victim to approve (test only)' })).toBeVisible();

    await page.goto('/admin/audit');
    await expect(page.getByText(/Audit chain intact/)).toBeVisible();
    await page.getByLabel('Record id').fill(victim._id);
    await page.getByRole('button', { name: 'Filter' }).click();
    const actions = page.locator('table.admin-table tbody tr td:nth-child(4)');
    await expect(actions.first()).toBeVisible();
    const listed = await actions.allTextContents();
    for (const action of ['create', 'approve', 'restore']) expect(listed, action).toContain(action);
    expect(listed.length).toBeGreaterThanOrEqual(4);
  });

  test('a super purges from the trash and changes a role', async ({ page, request }) => {
    const link = await apiCreate(request, contributor.token, 'links', { title: 'Sample link to purge (test only)', description: 'Sample.', linkURL: 'https://example.org/' });
    const del = await request.delete(`/api/v1.0.0/links/${link._id}/delete`, { headers: { authorization: `Bearer ${superToken}` } });
    expect(del.status()).toBe(200);
    await useToken(page, superToken);
    await page.goto('/admin/trash');
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Delete for good: Sample link to purge (test only)' }).click();
    await expect(page.getByText('Deleted for good.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Restore: Sample link to purge (test only)' })).toHaveCount(0);

    await page.goto('/admin/users');
    const select = page.getByRole('row').filter({ hasText: contributor.email }).getByRole('combobox', { name: /Role of Sample Editor/ });
    await select.selectOption('admin');
    // A dialog names the person and both roles before anything changes.
    const dialog = page.getByRole('dialog', { name: 'Change a role' });
    await expect(dialog).toContainText(/Change the role of Sample Editor .* from Contributor to Admin\?/);
    await dialog.getByRole('button', { name: /^Make Sample Editor .* Admin$/ }).click();
    await expect(page.getByText(/changed to Admin/)).toBeVisible();
    await expect(select).toHaveValue('admin');
  });

  test('video create confirms and shows upload progress reaching 100%', async ({ page, request }) => {
    // A fresh contributor: the role change above retired the first one's tokens (as a role change must).
    const uploader = await createContributor(request, 'video-uploader');
    await useToken(page, uploader.token);
    await page.goto('/dashboard');
    await page.getByLabel('Category').selectOption({ label: 'Video' });
    await page.getByLabel('Title', { exact: true }).fill('Sample uploaded video (test only)');
    await page.getByLabel('Description', { exact: true }).fill('Sample.');
    await page.getByLabel('Video', { exact: true }).setInputFiles(sampleMp4());
    // Record every value the progress bar shows (the upload of a small file is quick).
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        const bar = document.querySelector('progress');
        const text = document.querySelector('[data-testid="upload-percent"]');
        if (bar) seen.push(`${bar.getAttribute('value')}|${text?.textContent ?? ''}`);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    let confirmText = '';
    page.once('dialog', (d) => {
      confirmText = d.message();
      void d.accept();
    });
    await page.getByRole('button', { name: 'Submit' }).click();
    // The page moves on to the list once the upload is done, so the bar is checked through what it showed.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { progressSeen?: string[] }).progressSeen ?? []).catch(() => ['navigated']))
      .toContain('100|100%');
    expect(confirmText).toBe('Uploading the video, check the video in the videos sections after some minutes');
    await expect(page).toHaveURL(/\/videos$/);
    await expect(page.getByText('Sample uploaded video (test only)').first()).toBeVisible();
  });
});
