import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import '../src/lib/i18n';
import { session } from '../src/lib/session';
import DashboardPage from '../src/features/dashboard/DashboardPage';
import { renderScreen, signIn } from './helpers';

afterEach(() => {
  cleanup();
  session.clear();
});

const addForm = () => <p data-testid="add-form">add form</p>;

describe('/dashboard', () => {
  it('offers an import of a spreadsheet to an account that may add records, until a category is chosen', () => {
    signIn('contributor-1', 'contributor');
    const { unmount } = renderScreen(<DashboardPage renderAddForm={addForm} />, { url: '/dashboard' });
    expect(screen.getByRole('link', { name: /^Import it/ })).toHaveAttribute('href', '/admin/imports');
    expect(screen.queryByTestId('add-form')).toBeNull();
    unmount();
    renderScreen(<DashboardPage renderAddForm={addForm} />, { url: '/dashboard?category=victims' });
    expect(screen.getByTestId('add-form')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Import it/ })).toBeNull();
  });

  it('offers none to an account waiting for approval', () => {
    signIn('pending-1', 'pending');
    renderScreen(<DashboardPage renderAddForm={addForm} />, { url: '/dashboard' });
    expect(screen.queryByRole('link', { name: /^Import it/ })).toBeNull();
  });
});
