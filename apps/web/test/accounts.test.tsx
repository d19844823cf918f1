import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../src/lib/i18n';
import { session } from '../src/lib/session';
import ResetPasswordPage from '../src/features/auth/ResetPasswordPage';
import SignInPage from '../src/features/auth/SignInPage';
import SignUpPage from '../src/features/auth/SignUpPage';
import { json, mockFetch } from './helpers';

/** The account screens with the routes they go to. Test addresses only (example.test). */
function renderAccounts(url: string, screens: Record<string, ReactNode>) {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          {Object.entries(screens).map(([path, element]) => (
            <Route key={path} path={path} element={element} />
          ))}
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const tokenFor = (id: string) => `${b64({ alg: 'HS256' })}.${b64({ id, role: 'contributor', name: 'Tester', exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`;

afterEach(() => {
  cleanup();
  session.clear();
  vi.unstubAllGlobals();
});

describe('sign-up', { timeout: 20_000 }, () => {
  it('shows the server field errors under their fields, keeping the input; on success goes to /activation-message', async () => {
    let attempt = 0;
    mockFetch(() => (++attempt === 1 ? json({ email: 'This e-mail is already registered', password2: 'The passwords differ' }, 400) : json({ message: 'ok' }, 201)));
    const user = userEvent.setup();
    renderAccounts('/signup', { '/signup': <SignUpPage />, '/activation-message': <p>activation message</p> });
    await user.type(screen.getByLabelText('First name'), 'Tester');
    await user.type(screen.getByLabelText('Email'), 'tester@example.test');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('This e-mail is already registered')).toBeInTheDocument();
    expect(screen.getByText('The passwords differ')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('tester@example.test');
    expect(screen.getByLabelText('Email')).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('activation message')).toBeInTheDocument();
  });
});

describe('sign-in', { timeout: 20_000 }, () => {
  it('keeps the token and goes to ?next=; an unsafe next goes to the dashboard instead', async () => {
    mockFetch(() => json({ token: tokenFor('account-1') }));
    const user = userEvent.setup();
    renderAccounts('/signin?next=/victims', { '/signin': <SignInPage />, '/victims': <p>victims list</p>, '/dashboard': <p>dashboard</p> });
    await user.type(screen.getByLabelText('Email'), 'tester@example.test');
    await user.type(screen.getByLabelText('Password'), 'test password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('victims list')).toBeInTheDocument();
    expect(session.get()?.id).toBe('account-1');
    cleanup();
    session.clear();
    renderAccounts('/signin?next=//elsewhere.example', { '/signin': <SignInPage />, '/dashboard': <p>dashboard</p> });
    await user.type(screen.getByLabelText('Email'), 'tester@example.test');
    await user.type(screen.getByLabelText('Password'), 'test password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('dashboard')).toBeInTheDocument();
  });
});

describe('password reset', { timeout: 20_000 }, () => {
  it('ends on the sign-in page with a message that the password was changed', async () => {
    const fetchMock = mockFetch(() => json({ message: 'ok' }));
    const user = userEvent.setup();
    renderAccounts('/resetpassword/test-token', { '/resetpassword/:token': <ResetPasswordPage />, '/signin': <SignInPage /> });
    await user.type(screen.getByLabelText('Email'), 'tester@example.test');
    await user.type(screen.getByLabelText('Password'), 'new test password');
    await user.type(screen.getByLabelText('Confirm password'), 'new test password');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    const notice = await screen.findByTestId('route-notice');
    expect(notice).toHaveTextContent('Your password was changed; sign in with the new one.');
    expect(notice).toHaveAttribute('role', 'status');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/api/users/resetpassword/test-token');
  });
});
