import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router';
import { CATEGORIES, type RecordDto } from '@app/shared';
import '../src/lib/i18n';
import { session } from '../src/lib/session';
import { localToIso, recordFormData } from '../src/features/records/formData';
import { RecordActions } from '../src/features/records/RecordActions';
import { RecordForm } from '../src/features/records/RecordForm';
import { testRecord } from './fixtures';

const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const signIn = (id: string, role: string) =>
  session.signIn(`${b64({ alg: 'HS256' })}.${b64({ id, role, name: 'Sample', exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`);

const record = (over: Partial<RecordDto>): RecordDto => testRecord({ title: 'Sample', description: 'Sample', ...over });

function renderWithProviders(ui: React.ReactNode) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('record form body', () => {
  afterEach(cleanup);
  it('sends date-times as ISO with the local offset', () => {
    const iso = localToIso('2024-03-05T10:20:30');
    expect(iso).toMatch(/^2024-03-05T10:20:30[+-]\d{2}:\d{2}$/);
    expect(new Date(iso).getTime()).toBe(new Date(2024, 2, 5, 10, 20, 30).getTime());
    expect(localToIso('')).toBe('');
  });

  it('is generated from the registry: massacre images go as files[], textarea is 15 by 120', () => {
    renderWithProviders(<RecordForm category={CATEGORIES.massacres} submitLabel="Submit" save={async () => undefined} onSaved={() => undefined} />);
    const files = screen.getByLabelText('Images') as HTMLInputElement;
    expect(files).toHaveAttribute('name', 'files[]');
    expect(files.multiple).toBe(true);
    const description = screen.getByLabelText('Description');
    expect(description).toHaveAttribute('rows', '15');
    expect(description).toHaveAttribute('cols', '120');
    expect(screen.getByLabelText('Happened on')).toHaveAttribute('type', 'datetime-local');
    expect(screen.getByLabelText('Happened on')).toHaveAttribute('step', '1');
    expect(document.querySelector('form')).toHaveAttribute('novalidate');
    const body = recordFormData(CATEGORIES.massacres, document.querySelector('form')!);
    expect([...body.keys()]).toEqual(expect.arrayContaining(['title', 'evidence', 'quantity', 'description']));
    expect(body.has('files[]')).toBe(false);
  });

  it('asks to confirm a video upload only once the fields pass the checks (issue 52 item 20)', async () => {
    const user = userEvent.setup();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const save = vi.fn(async () => undefined);
    renderWithProviders(<RecordForm category={CATEGORIES.videos} confirmText="Uploading the video" submitLabel="Submit" save={save} onSaved={() => undefined} />);
    await user.type(screen.getByLabelText('Video link'), 'not a link');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(confirm).not.toHaveBeenCalled();
    expect(screen.getByText('Nothing was uploaded: correct the fields marked below first.')).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Title')).toHaveFocus();
    expect(screen.getByLabelText('Video link')).toHaveAttribute('aria-invalid', 'true');

    await user.type(screen.getByLabelText('Title'), 'Sample video (test only)');
    await user.type(screen.getByLabelText('Description'), 'Sample.');
    await user.clear(screen.getByLabelText('Video link'));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(confirm).toHaveBeenCalledWith('Uploading the video');
    expect(save).not.toHaveBeenCalled();
    confirm.mockRestore();
  });

  it("keeps a victim's killing time in the form and in what it sends (issue 52 item 20)", () => {
    renderWithProviders(<RecordForm category={CATEGORIES.victims} record={record({ category: 'victims', happenedOn: '2021-01-05T22:30:15' })} submitLabel="Submit" save={async () => undefined} onSaved={() => undefined} />);
    expect(screen.getByLabelText('Killing date and time')).toHaveAttribute('value', '2021-01-05T22:30:15');
    const sent = recordFormData(CATEGORIES.victims, document.querySelector('form')!).get('happenedOn');
    expect(new Date(String(sent)).getTime()).toBe(new Date(2021, 0, 5, 22, 30, 15).getTime());
  });
});

describe('owner actions', () => {
  afterEach(() => {
    cleanup();
    session.clear();
  });

  it('shows a contributor edit and delete on their own record, never approve or the lock', () => {
    signIn('owner', 'contributor');
    renderWithProviders(<RecordActions record={record({})} />);
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/events/edit/r1');
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.queryByRole('button', { name: /make private/ })).toBeNull();
  });

  it('shows nothing to a contributor on another editor’s record', () => {
    signIn('someone-else', 'contributor');
    const { container } = renderWithProviders(<RecordActions record={record({})} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('shows an admin approve only while not approved, and the lock for events', () => {
    signIn('admin-1', 'admin');
    const { unmount } = renderWithProviders(<RecordActions record={record({})} />);
    expect(screen.getByRole('button', { name: 'Approve' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Public: make private' })).toBeInTheDocument();
    unmount();
    renderWithProviders(<RecordActions record={record({ approved: true, public: false })} />);
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Private: make public' })).toBeInTheDocument();
  });

  it('gives links no approve and no lock, even to a super', () => {
    signIn('super-1', 'super');
    renderWithProviders(<RecordActions record={record({ category: 'links' })} />);
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.queryByRole('button', { name: /make (private|public)/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Edit' })).toBeInTheDocument();
  });
});
