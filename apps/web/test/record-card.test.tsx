import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { CATEGORIES } from '@app/shared';
import { RecordCard } from '../src/features/records/RecordCard';
import '../src/lib/i18n';
import { testRecord } from './fixtures';

/** A test record of `category` with `fields`; its content is labelled as test data and names no real person or place. */
const testRecordOf = (category: keyof typeof CATEGORIES, fields: Record<string, unknown>) =>
  testRecord({ _id: '00000000-0000-4000-8000-000000000001', category, createdAt: '2025-01-05T15:04:00.000Z', userId: null, ...fields });

const facts = () => {
  const list = screen.queryAllByRole('definition');
  return list.map((dd) => [dd.previousElementSibling?.textContent, dd.textContent]);
};

describe('record cards, from the registry', () => {
  afterEach(cleanup);

  it("show a victim's card fields with their card labels and the killing date with its time (issue 52 item 20)", () => {
    render(
      <MemoryRouter>
        <RecordCard
          category={CATEGORIES.victims}
          record={testRecordOf('victims', { fullName: 'Test Person', happenedOn: '2021-01-05T22:30:00', location: 'Test Town' })}
        />
      </MemoryRouter>,
    );
    const shown = Object.fromEntries(facts());
    // The form calls it "Full name"; the card says whose name it is.
    expect(shown.Victim).toBe('Test Person');
    // "ll hh:mm A" (decisions.md §1): when a person was killed is a moment, not a day.
    expect(shown['Killing date and time']).toBe('Jan 5, 2021 10:30 PM');
  });

  it("show a massacre's incident date with its remark in brackets", () => {
    render(
      <MemoryRouter>
        <RecordCard category={CATEGORIES.massacres} record={testRecordOf('massacres', { happenedOn: '2021-01-05T10:00:00.000Z', remark: 'approximate' })} />
      </MemoryRouter>,
    );
    expect(facts().map(([, value]) => value)).toContain('Jan 5, 2021 (approximate)');
  });

  it("show an event's start, end and address in its own block, not again as facts", () => {
    render(
      <MemoryRouter>
        <RecordCard
          category={CATEGORIES.events}
          record={testRecordOf('events', { country: 'Testland', city: 'Test City', streetName: 'Test Street 1', startAt: '2025-02-01T09:00:00.000Z', endAt: null })}
        />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('event-address').textContent).toBe('Testland, Test City, Test Street 1');
    expect(screen.getAllByText(/Testland/)).toHaveLength(1);
    const article = screen.getByTestId('record-card');
    expect(within(article).queryByTestId('event-end')).toBeNull();
  });
});
