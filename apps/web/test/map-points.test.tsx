import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { MapPoint } from '@app/shared';
import { PointMarkers, PointsTable, projectPoint } from '../src/features/statistics/IncidentPoints';
import ethiopia from '../src/features/statistics/map/ethiopia-regions.json';
import '../src/lib/i18n';

/** The rings of an SVG path of M, L and Z commands (what scripts/build-map.mjs writes). */
function ringsOf(d: string): [number, number][][] {
  return d
    .split('M')
    .filter(Boolean)
    .map((ring) =>
      ring
        .replace(/Z$/, '')
        .split('L')
        .map((pair) => pair.trim().split(/\s+/).map(Number) as [number, number]),
    );
}

/** Even-odd rule over every ring of the region. */
function inside([x, y]: [number, number], code: string): boolean {
  let found = false;
  for (const ring of ringsOf(ethiopia.regions.find((r) => r.code === code)!.d)) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i]!;
      const [xj, yj] = ring[j]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) found = !found;
    }
  }
  return found;
}

/** A made-up incident (test data) at a made-up place. */
function testPoint(n: number, fields: Partial<MapPoint> = {}): MapPoint {
  return {
    _id: `00000000-0000-4000-8000-00000000000${n}`,
    category: 'massacres',
    title: `Test massacre ${n} (test data)`,
    date: '2021-04-05',
    latitude: 10,
    longitude: 39,
    geoPrecision: 'town',
    region: 'amhara',
    location: 'Test place',
    zone: null,
    woreda: 'Test woreda',
    approved: false,
    ...fields,
  };
}

describe('incidents on the map', () => {
  afterEach(cleanup);

  it("projects degrees as the regions' shapes were projected: a point lands on its region", () => {
    // Points well inside regions (longitude, latitude): the projection is the shapes' own, not an approximation.
    const cases: [number, number, string][] = [
      [38.75, 9.0, 'addis-ababa'],
      [39.5, 13.6, 'tigray'],
      [37.5, 11.5, 'amhara'],
      [41.0, 12.0, 'afar'],
      [43.5, 7.0, 'somali'],
      [35.0, 10.5, 'benishangul-gumuz'],
      [34.5, 8.0, 'gambela'],
    ];
    for (const [longitude, latitude, code] of cases) expect(inside(projectPoint(longitude, latitude), code), code).toBe(true);
    // The corners of the drawing are the extremes of the country.
    const [x, y] = projectPoint(ethiopia.projection.minLon, ethiopia.projection.maxLat);
    expect([x, y]).toEqual([0, 0]);
  });

  it('draws each point as a link to its incident named by its <title>, and leaves out points off the map', () => {
    const { container } = render(
      <svg>
        <PointMarkers points={[testPoint(1), testPoint(2, { category: 'events', date: null }), testPoint(3, { latitude: -40, longitude: 10 })]} />
      </svg>,
    );
    const links = container.querySelectorAll('a.region-map-point');
    expect(links).toHaveLength(2);
    expect(links[0]!.getAttribute('href')).toBe('/massacres/00000000-0000-4000-8000-000000000001');
    expect(links[0]!.querySelector('title')!.textContent).toBe('Test massacre 1 (test data), Apr 5, 2021');
    expect(links[1]!.getAttribute('href')).toBe('/events/00000000-0000-4000-8000-000000000002');
    expect(links[1]!.querySelector('title')!.textContent).toBe('Test massacre 2 (test data)');
  });

  it('lists the points under the map: title, date, place and how exactly the place is shown', () => {
    render(
      <MemoryRouter>
        <PointsTable answer={{ points: [testPoint(1), testPoint(2, { geoPrecision: 'region', date: null, location: null, woreda: null })], total: 2 }} />
      </MemoryRouter>,
    );
    const table = within(screen.getByRole('region', { name: '2 incidents on the map' })).getByRole('table');
    const first = within(table).getByRole('row', { name: /Test massacre 1/ });
    expect(within(first).getByRole('link', { name: 'Test massacre 1 (test data)' })).toHaveAttribute('href', '/massacres/00000000-0000-4000-8000-000000000001');
    expect(within(first).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Apr 5, 2021', 'Test place, Test woreda, Amhara', 'Nearest town (about 1 km)']);
    const second = within(table).getByRole('row', { name: /Test massacre 2/ });
    expect(within(second).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Not recorded', 'Amhara', 'Region (about 100 km)']);
  });

  it('says when no incident has a place, and when more match than are shown', () => {
    render(<PointsTable answer={{ points: [], total: 0 }} />);
    expect(screen.getByText('No massacre or event matching these filters has a recorded place.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
    cleanup();
    render(<PointsTable answer={{ points: [testPoint(1)], total: 1234 }} />);
    expect(screen.getByText('The newest 1 of 1,234 are shown: narrow the filters to see the others.')).toBeInTheDocument();
  });
});
