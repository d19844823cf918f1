import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { WITHHELD_SOURCE } from '@app/shared';
import { IncidentLink, SourcesList } from '../src/features/records/RecordLinks';
import '../src/lib/i18n';
import { testRecord } from './fixtures';

/** Test records only: no real person or place. */
const victim = (fields: Record<string, unknown>) => testRecord({ _id: '00000000-0000-4000-8000-000000000002', category: 'victims', userId: null, ...fields });

describe("a record's links on its page", () => {
  afterEach(cleanup);

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
});
