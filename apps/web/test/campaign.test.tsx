import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../src/lib/i18n';
import type { Directory } from '../src/features/campaign/api';
import CampaignForm from '../src/features/campaign/CampaignForm';
import ConfirmPage from '../src/features/campaign/ConfirmPage';
import { applyCascade, authorityEmailOf, emptyValues, findRepresentatives, letterEdited, provincesOf, representativesOf } from '../src/features/campaign/cascade';
import ReportsPage from '../src/features/reports/ReportsPage';

/** Sample directory (test data: no real person or place). */
const DIRECTORY: Directory = [
  {
    code: 'CA',
    name: 'Canada',
    defaultMessage: 'Sample default letter for Canada, long enough to send.',
    provinces: [
      {
        name: 'Sample Province',
        representatives: [
          { id: 'r1', name: 'Sample Member One', party: 'Sample Party', district: 'Sample District North', email: 'one@example.test', available: true, note: null },
          { id: 'r2', name: 'Sample Member Two', party: null, district: 'Sample District South', email: null, available: false, note: 'Sample note: no public e-mail.' },
        ],
      },
      { name: 'Other Sample Province', representatives: [{ id: 'r3', name: 'Sample Member Three', party: null, district: 'Sample District East', email: 'three@example.test', available: true, note: null }] },
    ],
  },
  {
    code: 'AU',
    name: 'Australia',
    defaultMessage: 'Sample default letter for Australia, long enough to send.',
    provinces: [{ name: 'Sample State', representatives: [{ id: 'r4', name: 'Sample Member Four', party: 'Other Party', district: 'Sample Division', email: 'four@example.test', available: true, note: null }] }],
  },
];

describe('campaign cascade (pure)', () => {
  it('country fills the provinces and replaces the message; province fills the districts; district sets the authority e-mail', () => {
    let v = { ...emptyValues(), message: 'my own words' };
    v = applyCascade(DIRECTORY, v, { type: 'country', code: 'CA' });
    expect(v.message).toBe(DIRECTORY[0]!.defaultMessage);
    expect(provincesOf(DIRECTORY, v).map((p) => p.name)).toEqual(['Sample Province', 'Other Sample Province']);
    expect(representativesOf(DIRECTORY, v)).toEqual([]);
    v = applyCascade(DIRECTORY, v, { type: 'province', name: 'Sample Province' });
    expect(representativesOf(DIRECTORY, v).map((r) => r.district)).toEqual(['Sample District North', 'Sample District South']);
    expect(authorityEmailOf(DIRECTORY, v)).toBe('');
    v = applyCascade(DIRECTORY, v, { type: 'district', district: 'Sample District North' });
    expect(v.district).toBe('Sample District North');
    expect(authorityEmailOf(DIRECTORY, v)).toBe('one@example.test');
  });

  it('a representative without an e-mail cannot be chosen; changing country or province clears what depended on it', () => {
    let v = applyCascade(DIRECTORY, emptyValues(), { type: 'country', code: 'CA' });
    v = applyCascade(DIRECTORY, v, { type: 'province', name: 'Sample Province' });
    v = applyCascade(DIRECTORY, v, { type: 'district', district: 'Sample District South' });
    expect(v.district).toBe('');
    expect(authorityEmailOf(DIRECTORY, v)).toBe('');
    v = applyCascade(DIRECTORY, v, { type: 'district', district: 'Sample District North' });
    v = applyCascade(DIRECTORY, v, { type: 'province', name: 'Other Sample Province' });
    expect(v.district).toBe('');
    v = applyCascade(DIRECTORY, v, { type: 'country', code: 'AU' });
    expect(v).toMatchObject({ country: 'AU', province: '', district: '', message: DIRECTORY[1]!.defaultMessage });
    expect(applyCascade(DIRECTORY, v, { type: 'province', name: 'Sample Province' }).province).toBe('');
  });

  it('another letter keeps the sender and starts the letter over', () => {
    const v = { ...emptyValues(), email: 'a@example.test', firstName: 'Sample', country: 'CA', province: 'Sample Province', district: 'Sample District North', message: 'text' };
    expect(applyCascade(DIRECTORY, v, { type: 'anotherLetter' })).toEqual({ ...emptyValues(), email: 'a@example.test', firstName: 'Sample' });
  });
});

type Handler = (url: URL, init: RequestInit) => Response | Promise<Response>;
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

let fetchMock: ReturnType<typeof vi.fn>;
function mockFetch(handler: Handler) {
  fetchMock = vi.fn((input: RequestInfo | URL, init: RequestInit = {}) => Promise.resolve(handler(new URL(String(input), 'http://localhost'), init)));
  vi.stubGlobal('fetch', fetchMock);
}
const calls = (method: string, path: string) =>
  fetchMock.mock.calls.filter(([u, init]) => new URL(String(u), 'http://localhost').pathname === `/api/v1.0.0${path}` && ((init as RequestInit)?.method ?? 'GET') === method);

function renderWithApp(ui: ReactNode, url = '/') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  vi.unstubAllGlobals();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// userEvent types key by key; on a busy 2-core machine the form tests need more than the 5 s default.
describe('campaign form', { timeout: 20_000 }, () => {
  it('cascades country -> provinces -> districts -> representative and authority e-mail, with the default letter', async () => {
    mockFetch((url) => (url.pathname.endsWith('/campaign/directory') ? json(DIRECTORY) : json({}, 404)));
    const user = userEvent.setup();
    renderWithApp(<CampaignForm />);
    const country = screen.getByLabelText('Country');
    await waitFor(() => expect(within(country).getByRole('option', { name: 'Canada' })).toBeInTheDocument());
    expect(screen.getByLabelText('Province or state')).toBeDisabled();
    expect(screen.getByLabelText('Message')).toHaveAttribute('rows', '30');

    await user.selectOptions(country, 'CA');
    expect(screen.getByLabelText('Message')).toHaveValue(DIRECTORY[0]!.defaultMessage);
    const province = screen.getByLabelText('Province or state');
    expect(within(province).getAllByRole('option').map((o) => o.textContent)).toEqual(['Choose a province or state', 'Sample Province', 'Other Sample Province']);

    await user.selectOptions(province, 'Sample Province');
    const district = screen.getByLabelText('District');
    const unavailable = within(district).getByRole('option', { name: /Sample District South/ });
    expect(unavailable).toBeDisabled();
    expect(screen.getByText(/Sample note: no public e-mail\./)).toBeInTheDocument();
    expect(district.getAttribute('aria-describedby')).toContain('campaign-unavailable');
    expect(screen.queryByLabelText("Representative's e-mail")).toBeNull();

    await user.selectOptions(district, 'Sample District North');
    expect(screen.getByLabelText("Representative's e-mail")).toHaveValue('one@example.test');
    expect(screen.getByTestId('campaign-representative')).toHaveTextContent('Your representative: Sample Member One (Sample Party)');

    // Changing the country starts the cascade again.
    await user.selectOptions(country, 'AU');
    expect(screen.getByLabelText('Province or state')).toHaveValue('');
    expect(screen.getByLabelText('District')).toBeDisabled();
    expect(screen.queryByLabelText("Representative's e-mail")).toBeNull();
    expect(screen.getByLabelText('Message')).toHaveValue(DIRECTORY[1]!.defaultMessage);
    expect(calls('GET', '/campaign/directory')).toHaveLength(1);
  });

  it('fetches the directory only once the form comes into view', async () => {
    let reportVisible: (visible: boolean) => void = () => {};
    class FakeObserver {
      constructor(callback: IntersectionObserverCallback) {
        reportVisible = (visible) => callback([{ isIntersecting: visible } as IntersectionObserverEntry], this as unknown as IntersectionObserver);
      }
      observe() {}
      disconnect() {}
    }
    mockFetch(() => json(DIRECTORY));
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    renderWithApp(<CampaignForm />);
    expect(screen.getByLabelText('Country')).toBeInTheDocument();
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(calls('GET', '/campaign/directory')).toHaveLength(0);
    act(() => reportVisible(true));
    await waitFor(() => expect(within(screen.getByLabelText('Country')).getByRole('option', { name: 'Australia' })).toBeInTheDocument());
    expect(calls('GET', '/campaign/directory')).toHaveLength(1);
  });

  it('shows server field errors under their fields, keeps the input, then shows the notice in a status', async () => {
    let attempt = 0;
    mockFetch((url, init) => {
      if (url.pathname.endsWith('/campaign/directory')) return json(DIRECTORY);
      if (url.pathname.endsWith('/reports') && init.method === 'POST') {
        attempt += 1;
        if (attempt === 1) return json({ firstName: 'Enter your first name', email: 'Enter a valid e-mail address' }, 400);
        return json({ _id: 'm1', state: 'awaiting_confirmation', expiresAt: '2030-01-01T00:00:00.000Z', notice: 'Sample notice: open the link we e-mailed.' }, 201);
      }
      return json({}, 404);
    });
    const user = userEvent.setup();
    renderWithApp(<CampaignForm />);
    await waitFor(() => expect(within(screen.getByLabelText('Country')).getByRole('option', { name: 'Canada' })).toBeInTheDocument());
    await user.selectOptions(screen.getByLabelText('Country'), 'CA');
    await user.selectOptions(screen.getByLabelText('Province or state'), 'Sample Province');
    await user.selectOptions(screen.getByLabelText('District'), 'Sample District North');
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.type(screen.getByLabelText('Last name'), 'Sender');
    await user.type(screen.getByLabelText('City'), 'Sample City');
    await user.click(screen.getByRole('button', { name: 'Send' }));

    const firstName = await screen.findByLabelText('First name');
    await waitFor(() => expect(firstName).toHaveAttribute('aria-invalid', 'true'));
    expect(document.getElementById('campaign-firstName-error')).toHaveTextContent('Enter your first name');
    expect(firstName.getAttribute('aria-describedby')).toContain('campaign-firstName-error');
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(firstName).toHaveFocus();
    expect(screen.getByRole('alert')).toHaveTextContent('correct the fields marked below');
    // Nothing lost.
    expect(screen.getByLabelText('Email')).toHaveValue('not-an-email');
    expect(screen.getByLabelText('District')).toHaveValue('Sample District North');
    expect(screen.getByLabelText('Message')).toHaveValue(DIRECTORY[0]!.defaultMessage);

    const [, firstInit] = calls('POST', '/reports')[0]!;
    expect(JSON.parse(String((firstInit as RequestInit).body))).toMatchObject({
      email: 'not-an-email',
      lastName: 'Sender',
      country: 'CA',
      province: 'Sample Province',
      district: 'Sample District North',
      city: 'Sample City',
      authorityEmail: 'one@example.test',
      message: DIRECTORY[0]!.defaultMessage,
    });

    await user.type(firstName, 'Sample');
    expect(firstName).not.toHaveAttribute('aria-invalid');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    const status = await screen.findByText('Sample notice: open the link we e-mailed.');
    expect(status.closest('[role="status"]')).toHaveTextContent('Check your e-mail to confirm your letter.');
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
  });

  it('a rate limit is said plainly above the form, not under the letter', async () => {
    mockFetch((url, init) => {
      if (url.pathname.endsWith('/campaign/directory')) return json(DIRECTORY);
      if (init.method === 'POST') return json({ message: 'You can send at most 5 letters an hour; please try again later' }, 429);
      return json({}, 404);
    });
    const user = userEvent.setup();
    renderWithApp(<CampaignForm />);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('at most 5 letters an hour');
    expect(screen.getByLabelText('Message')).not.toHaveAttribute('aria-invalid');
  });
});

describe('confirmation page', () => {
  const renderConfirm = () =>
    renderWithApp(
      <Routes>
        <Route path="/campaign/confirm/:token" element={<ConfirmPage />} />
      </Routes>,
      '/campaign/confirm/sample-token',
    );

  it('shows the representative, and sends the letter only when the button is pressed', async () => {
    mockFetch((_url, init) =>
      json({ _id: 'm1', state: init.method === 'POST' ? 'confirmed' : 'awaiting_confirmation', representative: { name: 'Sample Member One', district: 'Sample District North' } }),
    );
    const user = userEvent.setup();
    renderConfirm();
    expect(await screen.findByText('Your letter to Sample Member One (Sample District North).')).toBeInTheDocument();
    expect(calls('POST', '/campaign/confirm/sample-token')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Send my letter' }));
    expect(await screen.findByRole('status')).toHaveTextContent('your letter is confirmed and is being sent to Sample Member One');
    expect(calls('POST', '/campaign/confirm/sample-token')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Send my letter' })).toBeNull();
  });

  it('says clearly when the link has expired (410) or is unknown (404)', async () => {
    mockFetch((_url, init) =>
      init.method === 'POST' ? json({ message: 'expired' }, 410) : json({ _id: 'm1', state: 'awaiting_confirmation', representative: { name: 'Sample Member One', district: 'Sample District North' } }),
    );
    const user = userEvent.setup();
    const first = renderConfirm();
    await user.click(await screen.findByRole('button', { name: 'Send my letter' }));
    expect(await screen.findByText(/This link has expired/)).toBeInTheDocument();
    first.unmount();

    mockFetch(() => json({ message: 'This link is not valid' }, 404));
    renderConfirm();
    expect(await screen.findByText('This link is not valid, or the letter was deleted.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send my letter' })).toBeNull();
  });
});

describe('reports page', () => {
  const renderReports = (url = '/reports') =>
    renderWithApp(
      <Routes>
        <Route path="/reports" element={<ReportsPage />} />
      </Routes>,
      url,
    );

  it('shows a loading image, then each letter with "Reported on" and the date, paged by ?page=', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    mockFetch(async () => {
      await gate;
      return json([{ _id: 'a', title: 'Letter to Sample Member One, Sample District North', message: 'Sample letter text.', createdAt: new Date(2021, 0, 5, 15, 4).toISOString() }], 200, {
        'x-total-count': '45',
      });
    });
    renderReports('/reports?page=2');
    expect(screen.getByRole('img', { name: 'Loading...' })).toBeInTheDocument();
    release();
    expect(await screen.findByRole('heading', { name: 'Letter to Sample Member One, Sample District North' })).toBeInTheDocument();
    expect(screen.getByText('Sample letter text.')).toBeInTheDocument();
    expect(screen.getByText(/Reported on/)).toHaveTextContent('Reported on Jan 5, 2021 03:04 PM');
    expect(screen.queryByRole('img', { name: 'Loading...' })).toBeNull();
    const [url] = fetchMock.mock.calls[0]!;
    expect(new URL(String(url), 'http://localhost').searchParams.get('offset')).toBe('20');
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
  });

  it('says "No report found" when nothing was delivered', async () => {
    mockFetch(() => json([], 200, { 'x-total-count': '0' }));
    renderReports();
    expect(await screen.findByText('No report found')).toBeInTheDocument();
  });
});

describe('the letter is not thrown away', () => {
  it('knows when the letter holds the sender\'s own words', () => {
    expect(letterEdited(DIRECTORY, { country: '', message: '' })).toBe(false);
    expect(letterEdited(DIRECTORY, { country: 'CA', message: DIRECTORY[0]!.defaultMessage })).toBe(false);
    expect(letterEdited(DIRECTORY, { country: 'CA', message: `${DIRECTORY[0]!.defaultMessage} My own words.` })).toBe(true);
    expect(letterEdited(DIRECTORY, { country: '', message: 'My own words.' })).toBe(true);
  });

  it('keeps the letter when the country changes with keepMessage', () => {
    const v = { ...emptyValues(), country: 'CA', message: 'My own words.' };
    expect(applyCascade(DIRECTORY, v, { type: 'country', code: 'AU', keepMessage: true })).toMatchObject({ country: 'AU', message: 'My own words.' });
    expect(applyCascade(DIRECTORY, v, { type: 'country', code: 'AU' }).message).toBe(DIRECTORY[1]!.defaultMessage);
  });

  it('asks before replacing an edited letter; keeping it, replacing it and undoing the replacement all work', { timeout: 20_000 }, async () => {
    mockFetch((url) => (url.pathname.endsWith('/campaign/directory') ? json(DIRECTORY) : json({}, 404)));
    const user = userEvent.setup();
    renderWithApp(<CampaignForm />);
    const country = screen.getByLabelText('Country');
    await waitFor(() => expect(within(country).getByRole('option', { name: 'Canada' })).toBeInTheDocument());
    await user.selectOptions(country, 'CA');
    const message = screen.getByLabelText('Message');
    await user.type(message, ' My own words.');
    const mine = `${DIRECTORY[0]!.defaultMessage} My own words.`;
    expect(message).toHaveValue(mine);

    // Changing the country keeps the letter and asks.
    await user.selectOptions(country, 'AU');
    expect(message).toHaveValue(mine);
    const question = screen.getByTestId('letter-choice');
    expect(question).toHaveTextContent('You have written your own letter. Replace it with the default letter for Australia?');
    await user.click(within(question).getByRole('button', { name: 'Keep my letter' }));
    expect(screen.queryByTestId('letter-choice')).toBeNull();
    expect(message).toHaveValue(mine);
    expect(screen.getByLabelText('Province or state')).toHaveValue('');
    expect(within(screen.getByLabelText('Province or state')).getByRole('option', { name: 'Sample State' })).toBeInTheDocument();

    // Asked again (Canada), the sender takes the default letter, then undoes it.
    await user.selectOptions(country, 'CA');
    await user.click(within(screen.getByTestId('letter-choice')).getByRole('button', { name: 'Use the letter for Canada' }));
    expect(message).toHaveValue(DIRECTORY[0]!.defaultMessage);
    expect(screen.getByTestId('letter-choice')).toHaveTextContent('Your letter was replaced with the default letter for Canada.');
    await user.click(screen.getByRole('button', { name: 'Undo: bring my letter back' }));
    expect(message).toHaveValue(mine);
    expect(screen.queryByTestId('letter-choice')).toBeNull();
  });
});

describe('finding a representative by name', () => {
  it('finds districts and members by any of their words, accents and case ignored, districts first', () => {
    expect(findRepresentatives(DIRECTORY, 'district north').map((r) => r.id)).toEqual(['r1']);
    expect(findRepresentatives(DIRECTORY, 'MEMBER four').map((r) => [r.id, r.country, r.province])).toEqual([['r4', 'AU', 'Sample State']]);
    expect(findRepresentatives(DIRECTORY, 'sample dístrict').map((r) => r.id)).toEqual(['r3', 'r1', 'r2']);
    expect(findRepresentatives(DIRECTORY, '   ')).toEqual([]);
    expect(findRepresentatives(undefined, 'sample')).toEqual([]);
  });

  it('picks a representative with the keyboard: country, province and district follow; one without an e-mail cannot be picked', { timeout: 20_000 }, async () => {
    mockFetch((url) => (url.pathname.endsWith('/campaign/directory') ? json(DIRECTORY) : json({}, 404)));
    const user = userEvent.setup();
    renderWithApp(<CampaignForm />);
    await waitFor(() => expect(within(screen.getByLabelText('Country')).getByRole('option', { name: 'Canada' })).toBeInTheDocument());
    const box = screen.getByRole('combobox', { name: 'Find your representative' });
    expect(box).toHaveAccessibleDescription("Type your riding, electorate or member's name");
    await user.type(box, 'south');
    const options = within(screen.getByRole('listbox', { name: 'Representatives found' })).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Sample District South Sample Member Two (Sample Province, Canada) · cannot be written to']);
    expect(options[0]).toHaveAttribute('aria-disabled', 'true');
    await user.keyboard('{Enter}');
    expect(screen.getByLabelText('Country')).toHaveValue('');

    await user.clear(box);
    await user.type(box, 'division');
    expect(box).toHaveAttribute('aria-expanded', 'true');
    expect(box.getAttribute('aria-activedescendant')).toBeTruthy();
    await user.keyboard('{Enter}');
    expect(screen.getByLabelText('Country')).toHaveValue('AU');
    expect(screen.getByLabelText('Province or state')).toHaveValue('Sample State');
    expect(screen.getByLabelText('District')).toHaveValue('Sample Division');
    expect(screen.getByLabelText("Representative's e-mail")).toHaveValue('four@example.test');
    expect(screen.getByLabelText('Message')).toHaveValue(DIRECTORY[1]!.defaultMessage);
    expect(box).toHaveValue('');
    expect(box).toHaveAttribute('aria-expanded', 'false');
  });
});
