import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CATEGORIES, WITHHELD_SOURCE } from '@app/shared';
import { IncidentLink, IncidentPeople, SourcesList } from '../src/features/records/RecordLinks';
import i18n from '../src/lib/i18n';
import am from '../src/locales/am.json';
import { testRecord } from './fixtures';
import { json, mockFetch, renderScreen } from './helpers';

/** Test records only: no real person or place. */
const victim = (fields: Record<string, unknown>) => testRecord({ _id: '00000000-0000-4000-8000-000000000002', category: 'victims', userId: null, ...fields });

describe("a record's links on its page", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('numbers the sources, a withheld testimony as withheld, then a massacre\'s evidence links', () => {
    render(
      <MemoryRouter>
        <SourcesList
          record={testRecord({
            _id: '00000000-0000-4000-8000-000000000003',
            category: 'massacres',
            sources: [WITHHELD_SOURCE, { kind: 'media', title: 'Test report', publisher: 'Test Daily', date: '2021-03', url: 'https://example.org/test-report' }],
            evidence: 'https://example.org/test-evidence',
          })}
        />
      </MemoryRouter>,
    );
    const items = screen.getAllByRole('listitem').map((li) => li.textContent);
    expect(items).toHaveLength(3);
    expect(items[0]).toBe("Witness testimony, withheld for the witness's safety");
    expect(items[1]).toContain('Media report');
    expect(items[1]).toContain('Test Daily · 2021-03');
    expect(screen.getByRole('link', { name: 'Test report' }).getAttribute('href')).toBe('https://example.org/test-report');
    expect(items[2]).toContain('https://example.org/test-evidence');
  });

  it("links a person's incident, or says it is unavailable, or says nothing", () => {
    const { rerender } = render(
      <MemoryRouter>
        <IncidentLink record={victim({ incidentId: '00000000-0000-4000-8000-000000000004', incident: { _id: '00000000-0000-4000-8000-000000000004', category: 'massacres', title: 'Test massacre', happenedOn: null, quantity: 3 } })} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'Test massacre' }).getAttribute('href')).toBe('/massacres/00000000-0000-4000-8000-000000000004');
    rerender(
      <MemoryRouter>
        <IncidentLink record={victim({ incidentId: null, incident: { unavailable: true } })} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('incident-link').textContent).toMatch(/no longer available/);
    rerender(
      <MemoryRouter>
        <IncidentLink record={victim({ incidentId: null })} />
      </MemoryRouter>,
    );
    expect(screen.queryByTestId('incident-link')).toBeNull();
  });

  it("counts a massacre's named victims by the language's plural rules (issue 52 item 20)", async () => {
    const massacre = testRecord({ _id: '00000000-0000-4000-8000-000000000005', category: 'massacres', quantity: 10 });
    const people = (n: number) => ({ total: n, counts: { victims: n }, people: Array.from({ length: n }, (_, i) => victim({ _id: `00000000-0000-4000-8000-00000000010${i}`, fullName: `Sample person ${i}` })) });
    mockFetch(() => json(people(1)));
    renderScreen(<IncidentPeople category={CATEGORIES.massacres} record={massacre} />);
    expect((await screen.findByText(/reported killed/)).textContent).toBe('1 named victim of 10 reported killed');
    cleanup();
    mockFetch(() => json(people(2)));
    renderScreen(<IncidentPeople category={CATEGORIES.massacres} record={{ ...massacre, _id: '00000000-0000-4000-8000-000000000006' }} />);
    expect((await screen.findByText(/reported killed/)).textContent).toBe('2 named victims of 10 reported killed');
    // Amharic's rules (CLDR): 0 and 1 take the singular, the rest the plural.
    i18n.addResourceBundle('am', 'translation', am, true, true);
    const tAm = i18n.getFixedT('am');
    expect(tAm('links.namedOf', { count: 1, reported: 10 })).toBe('ከተዘገቡት 10 ሟቾች 1 በስም የታወቀ ተጎጂ');
    expect(tAm('links.namedOf', { count: 3, reported: 10 })).toBe('ከተዘገቡት 10 ሟቾች 3 በስም የታወቁ ተጎጂዎች');
    expect(tAm('links.named', { count: 0 })).toBe('0 በስም የታወቀ ተጎጂ');
  });
});
