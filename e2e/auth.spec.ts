import { expect, test } from './fixtures';
import { TEST_PASSWORD, approveByEmail, linkFromOutbox, uniqueEmail } from './editor-helpers';

test.describe('accounts', () => {
  test('sign up, activate from the e-mailed link, wait for approval, then sign in, see Dashboard and Logout, log out', async ({ page, request }) => {
    const email = uniqueEmail('signup');
    await page.goto('/signup');
    await expect(page.getByText('Use an email connected with a gravatar image.')).toBeVisible();
    await page.getByLabel('First name').fill('Sample');
    await page.getByLabel('Last name').fill('Person');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByLabel('Confirm password').fill(TEST_PASSWORD);
    await page.getByLabel('Organisation (optional)').fill('Sample Test Association');
    await page.getByLabel('Why do you want to contribute? (optional)').fill('Test: documenting sample records.');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page).toHaveURL(/\/activation-message$/);
    await expect(page).toHaveTitle(/An activation link has been sent to your email/);

    const link = await linkFromOutbox(email, 'activation');
    await page.goto(link);
    await expect(page).toHaveTitle(/Your account has been activated, sign in to your account/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    // Activated but not approved: the account waits for an administrator (accounts.spec.ts approves one on screen).
    await expect(page).toHaveURL(/\/account\/pending$/);
    await expect(page.getByTestId('pending-account')).toContainText("Your account is waiting for an administrator's approval.");
    await approveByEmail(request, email);
    await page.getByRole('link', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/signin$/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    const menu = page.getByRole('navigation', { name: 'Menu' });
    await expect(menu.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Logout' })).toBeVisible();
    await menu.getByRole('link', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/signin$/);
    await expect(menu.getByRole('link', { name: 'Sign In' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  test('server field errors appear under their fields; the typed input stays', async ({ page }) => {
    await page.goto('/signup');
    await page.getByLabel('First name').fill('Sample');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('different');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    for (const label of ['Last name', 'Email', 'Password']) {
      const input = page.getByLabel(label, { exact: true });
      await expect(input, label).toHaveAttribute('aria-invalid', 'true');
      const errorId = ((await input.getAttribute('aria-describedby')) ?? '').split(' ').find((id) => id.endsWith('-error'));
      expect(errorId, label).toBeTruthy();
      await expect(page.locator(`[id="${errorId}"]`), label).not.toBeEmpty();
    }
    await expect(page.getByLabel('Email')).toHaveValue('not-an-email');
    await expect(page).toHaveURL(/\/signup$/);
  });

  test('an account not yet activated can ask for the link again; sign-in returns to ?next=', async ({ page, request }) => {
    const email = uniqueEmail('inactive');
    const res = await request.post('/api/users/signup', {
      data: { firstName: 'Sample', lastName: 'Inactive', email, password: TEST_PASSWORD, password2: TEST_PASSWORD },
    });
    expect(res.status()).toBe(201);
    await page.goto('/signin');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await page.getByRole('button', { name: 'Send the link again' }).click();
    await expect(page.getByText('A new activation link has been sent to your email.')).toBeVisible();

    const link = await linkFromOutbox(email, 'activation');
    const activated = await request.post(`/api/users${link}`);
    expect(activated.status()).toBe(200);
    await approveByEmail(request, email);
    await page.goto('/victims/edit/00000000-0000-4000-8000-000000000000');
    await expect(page).toHaveURL(/\/signin\?next=/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/victims\/edit\/00000000-0000-4000-8000-000000000000$/);
  });

  test('forgot password sends a link; the reset form sets a new password and says so on the sign-in page', async ({ page, request }) => {
    const email = uniqueEmail('reset');
    await request.post('/api/users/signup', {
      data: { firstName: 'Sample', lastName: 'Reset', email, password: TEST_PASSWORD, password2: TEST_PASSWORD },
    });
    await request.post(`/api/users${await linkFromOutbox(email, 'activation')}`);
    await approveByEmail(request, email);
    await page.goto('/forgotpassword');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page).toHaveURL(/\/check-email$/);
    await expect(page).toHaveTitle(/A password reset link has been sent, check your email/);
    await page.goto(await linkFromOutbox(email, 'resetpassword'));
    const newPassword = 'another sample password (test only)';
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm password').fill(newPassword);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await expect(page).toHaveURL(/\/signin$/);
    // The reset ends with a message, not a silent sign-in form.
    await expect(page.getByRole('status').filter({ hasText: 'Your password was changed; sign in with the new one.' })).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(newPassword);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
