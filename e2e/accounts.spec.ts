import { Secret, TOTP } from 'otpauth';
import { appReady, expect, test } from './fixtures';
import { SUPER, TEST_PASSWORD, createContributor, linkFromOutbox, uniqueEmail, useToken } from './editor-helpers';
import type { Page } from '@playwright/test';

/** Approval before access and two-step sign-in, as people do them in the browser. Test data only. */

const codeAt = (secret: string, at: number) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: at });

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/signin');
  await appReady(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

test.describe('accounts', () => {
  test('sign up, wait on the pending screen, an admin approves from the accounts queue, then a contributor', async ({ page, browser, request }) => {
    const email = uniqueEmail('queue');
    const signup = await request.post('/api/users/signup', {
      data: { firstName: 'Sample', lastName: 'Queued', email, password: TEST_PASSWORD, password2: TEST_PASSWORD, organisation: 'Sample Test Group', reason: 'Test: sample reason' },
    });
    expect(signup.status()).toBe(201);
    expect((await request.post(`/api/users${await linkFromOutbox(email, 'activation')}`)).status()).toBe(200);
    await signIn(page, email, TEST_PASSWORD);
    await expect(page).toHaveURL(/\/account\/pending$/);
    await expect(page.getByTestId('pending-account')).toContainText("waiting for an administrator's approval");

    // The super approves in a browser of their own.
    const admin = await browser.newPage();
    await signIn(admin, SUPER.email, SUPER.password);
    await expect(admin).toHaveURL(/\/dashboard$/);
    await admin.goto('/admin');
    await admin.getByRole('link', { name: 'Accounts queue' }).click();
    const row = admin.getByRole('row').filter({ hasText: email });
    await expect(row).toContainText('Sample Test Group');
    await expect(row).toContainText('Test: sample reason');
    await row.getByRole('button', { name: 'Approve Sample Queued' }).click();
    await expect(admin.getByTestId('accounts-feedback')).toContainText('Sample Queued is now a contributor');
    await expect(admin.getByRole('row').filter({ hasText: email })).toHaveCount(0);
    await admin.close();

    await page.getByRole('link', { name: 'Sign out' }).click();
    await signIn(page, email, TEST_PASSWORD);
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('set up an authenticator app, then sign in with a code from it', async ({ page, browser, request }) => {
    const user = await createContributor(request, 'totp');
    await useToken(page, user.token);
    await page.goto('/account/two-factor');
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await expect(page.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    const now = Date.now();
    await page.getByLabel('Code from the app').fill(codeAt(secret, now));
    await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
    await expect(page.getByRole('status')).toContainText('Two-step sign-in is on.');
    await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);

    // A browser that has never been signed in.
    const context = await browser.newContext();
    const fresh = await context.newPage();
    await signIn(fresh, user.email, TEST_PASSWORD);
    await expect(fresh.getByText('Enter the code from your authenticator app, or a recovery code.')).toBeVisible();
    await fresh.getByLabel('Code from the app').fill('000000');
    await fresh.getByRole('button', { name: 'Verify' }).click();
    await expect(fresh.getByText('This code is not right (or was used already)')).toBeVisible();
    // The next time step's code: the one used to enrol is never accepted again.
    await fresh.getByLabel('Code from the app').fill(codeAt(secret, now + 30_000));
    await fresh.getByRole('button', { name: 'Verify' }).click();
    await expect(fresh).toHaveURL(/\/dashboard$/);
    await context.close();
  });
});
