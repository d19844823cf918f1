import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DuplicatePair, DuplicatePairPerson } from '@app/shared';
import '../src/lib/i18n';
import { session } from '../src/lib/session';
import DuplicatesPage from '../src/features/admin/DuplicatesPage';
import { callsTo, json, mockFetch, renderScreen, signIn } from './helpers';

/** Made-up people only (test data). */
const person = (id: string, happenedOn: string, holds: DuplicatePairPerson['holds']): DuplicatePairPerson => ({
  _id: `00000000-0000-4000-8000-00000000000${id}`,
  category: 'victims',
  title: 'Test Sample Person (test data)',
  fullName: 'Test Sample Person',
  happenedOn,
  region: null,
  woreda: null,
  incidentId: null,
  createdAt: '2024-01-01T00:00:00.000Z',
  holds,
});
const none = { files: 0, sources: 0, withheldSources: 0, confirmed: false };
const pairs: DuplicatePair[] = [
  { first: person('1', '2021-03-04T00:00:00.000Z', none), second: person('2', '2021-03-05T00:00:00.000Z', { files: 2, sources: 3, withheldSources: 1, confirmed: true }), score: 0.9, nameSimilarity: 1, reasons: ['name', 'date'] },
  { first: person('3', '2022-01-10T00:00:00.000Z', none), second: person('4', '2022-01-11T00:00:00.000Z', none), score: 0.8, nameSimilarity: 1, reasons: ['name'] },
];

afterEach(() => {
  cleanup();
  session.clear();
  vi.unstubAllGlobals();
});

describe('/admin/duplicates', () => {
  it('names each button by its pair and the record it keeps, says what each record holds and what a merge moves', async () => {
    signIn('admin-1', 'admin');
    const fetchMock = mockFetch((url) => (url.pathname.endsWith('/duplicates') ? json(pairs) : json({ category: 'victims', keep: pairs[0]!.first._id })));
    const user = userEvent.setup();
    renderScreen(<DuplicatesPage />);
    const rows = await screen.findAllByTestId('duplicate-pair');
    expect(rows).toHaveLength(2);
    // The same words on screen, but no two buttons of the same name, each saying which record it keeps.
    const names = screen.getAllByRole('button').map((b) => b.getAttribute('aria-label') ?? b.textContent);
    expect(new Set(names).size).toBe(names.length);
    const keepSecond = within(rows[0]!).getByRole('button', {
      name: 'Merge, keep the second: pair 1, keep Test Sample Person (Victim, Mar 5, 2021) and merge Test Sample Person (Victim, Mar 4, 2021) into it',
    });
    expect(keepSecond).toHaveTextContent('Merge, keep the second');
    expect(within(rows[1]!).getByRole('button', { name: /^Not the same person: pair 2, / })).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent('2 files · 3 sources · 1 withheld testimony · Confirmed');
    // Merging the second into the first: the question says what moves, the testimony's readers and the confirmation.
    const confirm = vi.fn(() => true);
    vi.stubGlobal('confirm', confirm);
    await user.click(within(rows[0]!).getByRole('button', { name: /^Merge, keep the first: pair 1, / }));
    const question = (confirm.mock.calls[0] as unknown as [string])[0];
    expect(question).toContain('Moving to the kept record: 2 files, 3 sources.');
    expect(question).toContain('stays readable only by its author and the staff');
    expect(question).toContain('becomes Confirmed');
    expect(callsTo(fetchMock, 'POST', '/api/v1.0.0/duplicates/merge')).toHaveLength(1);
  });
});
