import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UserListItem } from '@app/shared';
import '../src/lib/i18n';
import { session } from '../src/lib/session';
import AdminHubPage from '../src/features/admin/AdminHubPage';
import AuditPage from '../src/features/admin/AuditPage';
import CheckpointsPage from '../src/features/admin/CheckpointsPage';
import TrashPage from '../src/features/admin/TrashPage';
import UsersPage from '../src/features/admin/UsersPage';
import { testRecord } from './fixtures';
import { callsTo, json, mockFetch, renderScreen, signIn } from './helpers';

/** Test accounts and records only (example.test addresses, no real person). */
const account = (id: string, firstName: string, role: UserListItem['role']): UserListItem =>
  ({ id, firstName, lastName: id === 'super-1' ? 'One' : 'Two', email: `${id}@example.test`, role, active: true, createdAt: '2024-01-01T00:00:00.000Z' }) as UserListItem;

afterEach(() => {
  cleanup();
  session.clear();
  vi.unstubAllGlobals();
});

describe('/admin hub', () => {
  it('links every administrators\' screen with a line each; users only for a super', () => {
    signIn('super-1', 'super');
    const { unmount } = renderScreen(<AdminHubPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Administration' })).toBeInTheDocument();
    const links = Object.fromEntries(screen.getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')]));
    expect(links).toEqual({
      'Accounts queue': '/admin/accounts',
      Users: '/admin/users',
      'Audit log': '/admin/audit',
      'Access log': '/admin/access-log',
      Trash: '/admin/trash',
      'Possible duplicates': '/admin/duplicates',
      Testimonies: '/admin/testimonies',
      'Import records': '/admin/imports',
      'Audit checkpoints': '/admin/checkpoints',
      "Representatives' directory": '/admin/representatives',
    });
    for (const key of ['accounts', 'users', 'audit', 'accessLog', 'trash', 'duplicates', 'testimonies', 'imports', 'checkpoints', 'representatives', 'captures']) {
      expect(screen.getByTestId(`admin-hub-${key}`).querySelector('p')?.textContent?.length).toBeGreaterThan(20);
    }
    expect(screen.getByTestId('admin-hub-captures')).toHaveTextContent(/set on that record's page/);
    unmount();
    session.clear();
    signIn('admin-1', 'admin');
    renderScreen(<AdminHubPage />);
    expect(screen.queryByRole('link', { name: 'Users' })).toBeNull();
    // Admins approve accounts; only a super changes roles.
    expect(screen.getByRole('link', { name: 'Accounts queue' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Trash' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Possible duplicates' })).toBeInTheDocument();
  });

  it('a contributor is told it is not for them', () => {
    signIn('contributor-1', 'contributor');
    renderScreen(<AdminHubPage />);
    expect(screen.getByRole('alert')).toHaveTextContent('You do not have permission to see this page.');
    expect(screen.queryByRole('link', { name: 'Trash' })).toBeNull();
  });
});

describe('/admin/users: role changes are confirmed', { timeout: 20_000 }, () => {
  const users = [account('super-1', 'Tester', 'super'), account('user-2', 'Tester', 'contributor')];
  const api = (refuse?: string) =>
    mockFetch((url, init) => {
      if (url.pathname === '/api/users' && (init.method ?? 'GET') === 'GET') return json(users, 200, { 'x-total-count': '2' });
      if (refuse) return json({ role: refuse }, 409);
      const id = url.pathname.split('/')[3]!;
      const role = (JSON.parse(String(init.body)) as { role: UserListItem['role'] }).role;
      return json({ ...users.find((u) => u.id === id)!, role });
    });

  it('names the person, the old and the new role; Cancel changes nothing; Confirm sends the change', async () => {
    signIn('super-1', 'super');
    const fetchMock = api();
    const user = userEvent.setup();
    renderScreen(<UsersPage />);
    const select = await screen.findByRole('combobox', { name: 'Role of Tester Two' });
    await user.selectOptions(select, 'admin');
    let dialog = screen.getByRole('dialog', { name: 'Change a role' });
    expect(dialog).toHaveTextContent('Change the role of Tester Two from Contributor to Admin?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(select).toHaveValue('contributor');
    expect(callsTo(fetchMock, 'PUT', '/api/users/user-2/role')).toHaveLength(0);

    await user.selectOptions(select, 'admin');
    dialog = screen.getByRole('dialog', { name: 'Change a role' });
    await user.click(within(dialog).getByRole('button', { name: 'Make Tester Two Admin' }));
    await waitFor(() => expect(screen.getByTestId('role-feedback')).toHaveTextContent('Role of Tester Two changed to Admin.'));
    expect(callsTo(fetchMock, 'PUT', '/api/users/user-2/role')).toHaveLength(1);
  });

  it('lowering one\'s own role asks twice', async () => {
    signIn('super-1', 'super');
    const fetchMock = api();
    const user = userEvent.setup();
    renderScreen(<UsersPage />);
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Role of Tester One' }), 'admin');
    const first = screen.getByRole('dialog', { name: 'Change a role' });
    expect(first).toHaveTextContent('Change your own role (Tester One) from Super to Admin?');
    await user.click(within(first).getByRole('button', { name: 'Make Tester One Admin' }));
    const second = screen.getByRole('dialog', { name: 'Lower your own role?' });
    expect(second).toHaveTextContent('You will lose the rights of a Super at once, and only another super can give them back.');
    expect(callsTo(fetchMock, 'PUT', '/api/users/super-1/role')).toHaveLength(0);
    await user.click(within(second).getByRole('button', { name: 'Yes, make me Admin' }));
    await waitFor(() => expect(callsTo(fetchMock, 'PUT', '/api/users/super-1/role')).toHaveLength(1));
  });

  it("shows the server's refusal (the last super) as it says, keyed by role", async () => {
    signIn('super-1', 'super');
    api('The last super cannot be removed: make another account super first');
    const user = userEvent.setup();
    renderScreen(<UsersPage />);
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Role of Tester One' }), 'contributor');
    await user.click(screen.getByRole('button', { name: 'Make Tester One Contributor' }));
    await user.click(screen.getByRole('button', { name: 'Yes, make me Contributor' }));
    const refusal = await screen.findByRole('alert');
    expect(refusal).toHaveTextContent('The last super cannot be removed: make another account super first');
  });
});

describe('/admin/trash and /admin/audit', () => {
  it('restores a trashed record and says so', async () => {
    signIn('admin-1', 'admin');
    const trashed = testRecord({ _id: 't1', category: 'victims', title: 'Test trashed victim', deletedAt: '2024-02-01T00:00:00.000Z' });
    const fetchMock = mockFetch((url, init) => ((init.method ?? 'GET') === 'GET' ? json([trashed], 200, { 'x-total-count': '1' }) : json(trashed)));
    const user = userEvent.setup();
    renderScreen(<TrashPage />);
    await user.click(await screen.findByRole('button', { name: 'Restore: Test trashed victim' }));
    expect(await screen.findByText('Restored.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'PUT', '/api/v1.0.0/trash/t1/restore')).toHaveLength(1);
    // An admin may not purge: no button.
    expect(screen.queryByRole('button', { name: /Delete for good/ })).toBeNull();
  });

  it('lists audit entries and the chain status; a row filters by its record', async () => {
    signIn('admin-1', 'admin');
    const entry = { seq: 7, at: '2024-03-01T10:00:00.000Z', actorId: 'a1', actorRole: 'admin', actorName: 'Test Admin Person', action: 'approve', category: 'victims', recordId: '00000000-0000-4000-8000-0000000000b1', subject: 'Test victim', changes: { approved: {} } };
    const fetchMock = mockFetch((url) => (url.pathname.endsWith('/audit/verify') ? json({ ok: true, entries: 7 }) : json([entry], 200, { 'x-total-count': '1' })));
    const user = userEvent.setup();
    renderScreen(<AuditPage />);
    expect(await screen.findByText('Audit chain intact: 7 entries checked.')).toBeInTheDocument();
    const row = screen.getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('approve');
    // Who: the person's name and role in words, not an id's first characters.
    expect(within(row).getByRole('button', { name: 'Test Admin Person' })).toHaveAttribute('title', 'a1');
    expect(within(row).getAllByRole('cell')[2]).toHaveTextContent('Test Admin Person (Admin)');
    // Each cell carries its column's heading, which a phone shows beside the value (a stacked table).
    const headings = screen.getAllByRole('columnheader').map((th) => th.textContent);
    expect(within(row).getAllByRole('cell').map((td) => td.getAttribute('data-label'))).toEqual(headings);
    expect(headings).toEqual(['#', 'When', 'Who', 'Action', 'Record', 'Changes']);
    expect(within(row).getByRole('link', { name: 'Test victim' })).toHaveAttribute('href', `/victims/${entry.recordId}`);
    await user.click(within(row).getByRole('button', { name: entry.recordId }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([u]) => String(u).includes(`recordId=${entry.recordId}`))).toBe(true));
  });
});

describe('/admin/checkpoints', () => {
  it('lists the signed checkpoints newest first and signs the head on request', async () => {
    signIn('admin-1', 'admin');
    const checkpoint = (seq: number) => ({ seq, hash: `${seq}`.padEnd(64, 'f'), at: '2024-03-01T10:00:00.000Z', keyId: 'k', publicKey: 'p', signature: 's', timestampToken: null, timestampedAt: null });
    let list = [checkpoint(100), checkpoint(200)];
    const fetchMock = mockFetch((_url, init) => {
      if ((init.method ?? 'GET') === 'POST') {
        list = [...list, checkpoint(250)];
        return json(list.at(-1), 201);
      }
      return json(list);
    });
    const user = userEvent.setup();
    renderScreen(<CheckpointsPage />);
    await waitFor(() => expect(screen.getAllByRole('row')[1]).toHaveTextContent(/^200/));
    await user.click(screen.getByRole('button', { name: "Sign the log's head now" }));
    expect(await screen.findByText('Checkpoint 250 signed.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByRole('row')[1]).toHaveTextContent(/^250/));
    expect(callsTo(fetchMock, 'POST', '/api/v1.0.0/audit/checkpoints')).toHaveLength(1);
  });
});
