import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CATEGORIES, type RecordDto } from '@app/shared';
import { fieldAria } from '../src/components/FormField';
import { IncidentPicker } from '../src/features/records/IncidentPicker';
import { incidentFilters, typedPeriod } from '../src/features/records/incidentSearch';
import '../src/lib/i18n';
import { testRecord } from './fixtures';
import { json, mockFetch, renderScreen } from './helpers';

/** Test records only: no real incident, person or place. */
const first = testRecord({ _id: '00000000-0000-4000-8000-0000000000a1', category: 'massacres', title: 'Test massacre one', happenedOn: '2021-03-05T00:00:00.000Z', location: 'Test place A' });
const second = testRecord({ _id: '00000000-0000-4000-8000-0000000000a2', category: 'events', title: 'Test event two', startAt: '2022-01-02T00:00:00.000Z', city: 'Test city B' });
const field = CATEGORIES.victims.fields.find((f) => f.kind === 'incident')!;

function searchAnswer(records: RecordDto[]) {
  return json({ total: records.length, estimated: false, order: 'relevance', hits: records.map((record) => ({ record, snippet: [] })), facets: {}, nextCursor: null });
}

/** The picker in a form, as the record form holds it; returns the hidden input the form sends. */
function renderPicker(record?: RecordDto) {
  const view = renderScreen(
    <form aria-label="test form">
      <label htmlFor="picker">Massacre or event</label>
      <IncidentPicker field={field} common={fieldAria('picker', {})} record={record} />
    </form>,
  );
  return { view, sent: () => (view.container.querySelector(`input[name="${field.name}"]`) as HTMLInputElement).value };
}

describe('the incident picker', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('asks for massacres and events by words, or by the period of a typed date', () => {
    expect(incidentFilters('a')).toBeNull();
    expect(incidentFilters(' test one ')).toEqual({ category: ['events', 'massacres'], q: 'test one' });
    expect(typedPeriod('2021')).toEqual({ from: '2021-01-01', to: '2021-12-31' });
    expect(typedPeriod('2024-02')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(typedPeriod('2021-03-05')).toEqual({ from: '2021-03-05', to: '2021-03-05' });
    expect(typedPeriod('2021-02-30')).toBeNull();
    expect(typedPeriod('2021-13')).toBeNull();
  });

  it('opens its options as the editor types, moves with the arrows, chooses with Enter and closes with Escape', async () => {
    const fetchMock = mockFetch((url) => (url.pathname.endsWith('/search') ? searchAnswer([first, second]) : json({}, 404)));
    const user = userEvent.setup();
    const { sent } = renderPicker();
    const box = screen.getByRole('combobox', { name: 'Massacre or event' });
    expect(box).toHaveAttribute('aria-expanded', 'false');
    await user.type(box, 'test');
    const options = await screen.findAllByRole('option');
    expect(options).toHaveLength(2);
    expect(box).toHaveAttribute('aria-expanded', 'true');
    expect(box).toHaveAttribute('aria-controls', screen.getByRole('listbox').id);
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('2'));
    // One request for the pause after typing, not one per letter; massacres and events only.
    const asked = fetchMock.mock.calls.map(([u]) => new URL(String(u), 'http://localhost')).filter((u) => u.pathname.endsWith('/search'));
    expect(asked).toHaveLength(1);
    expect(asked[0]!.searchParams.getAll('category')).toEqual(['events', 'massacres']);
    expect(asked[0]!.searchParams.get('q')).toBe('test');

    await user.keyboard('{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', options[0]!.id);
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', options[0]!.id); // wraps round
    await user.keyboard('{ArrowUp}');
    expect(box).toHaveAttribute('aria-activedescendant', options[1]!.id);
    await user.keyboard('{Escape}');
    expect(box).toHaveAttribute('aria-expanded', 'false');
    expect(box).not.toHaveAttribute('aria-activedescendant');
    expect(sent()).toBe('');

    await user.keyboard('{ArrowDown}{Enter}');
    expect(box).toHaveAttribute('aria-expanded', 'false');
    expect(sent()).toBe(first._id);
    expect(screen.getByTestId('incident-chosen')).toHaveTextContent('Test massacre one');
    expect(screen.getByTestId('incident-chosen')).toHaveTextContent('Test place A');
    expect(box).toHaveAccessibleDescription(/Test massacre one/);

    await user.click(screen.getByRole('button', { name: 'Clear choice' }));
    expect(sent()).toBe('');
    expect(screen.queryByTestId('incident-chosen')).toBeNull();
    expect(box).toHaveFocus();
  });

  it('says when nothing matches, and Enter then does not send the form', async () => {
    mockFetch(() => searchAnswer([]));
    const submitted = vi.fn((e: Event) => e.preventDefault());
    const user = userEvent.setup();
    renderPicker();
    screen.getByRole('form').addEventListener('submit', submitted);
    const box = screen.getByRole('combobox', { name: 'Massacre or event' });
    await user.type(box, 'nothing here');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('No massacre or event matches'));
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    expect(box).toHaveAttribute('aria-expanded', 'false');
    await user.keyboard('{Enter}');
    expect(submitted).not.toHaveBeenCalled();
    await user.keyboard('{Escape}');
    expect(box).toHaveValue('');
  });

  it("shows a stored incident's title, date and place, never its bare id, and sends its id unchanged", async () => {
    mockFetch((url) => (url.pathname.endsWith(`/massacres/${first._id}`) ? json(first) : json({}, 404)));
    const victim = testRecord({ _id: '00000000-0000-4000-8000-0000000000b1', category: 'victims', incidentId: first._id, incident: { _id: first._id, category: 'massacres', title: first.title, happenedOn: '2021-03-05T00:00:00.000Z', quantity: null } });
    const { sent } = renderPicker(victim);
    const chosen = screen.getByTestId('incident-chosen');
    expect(chosen).toHaveTextContent('Test massacre one');
    expect(chosen).toHaveTextContent('2021');
    expect(chosen).not.toHaveTextContent(first._id);
    await waitFor(() => expect(chosen).toHaveTextContent('Test place A'));
    expect(sent()).toBe(first._id);
  });
});
