import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { CATEGORY_SLUGS, REGION_CODES, type StatisticsResponse } from '@app/shared';
import { filtersFromParams } from '../src/features/statistics/api';
import { lastDayOfMonth, monthRange } from '../src/features/statistics/MonthChart';
import { FORMED_FROM_SNNP, RegionMap } from '../src/features/statistics/RegionMap';
import { RegionBars } from '../src/features/statistics/StatisticsBody';
import '../src/lib/i18n';

/** Statistics of made-up test counts (no real figures). */
function testStatistics(regionCounts: Record<string, number>): StatisticsResponse {
  const regions = [...REGION_CODES, 'unknown'].map((region) => ({ region, count: regionCounts[region] ?? 0 }));
  const total = regions.reduce((n, r) => n + r.count, 0);
  return {
    total,
    categories: CATEGORY_SLUGS.map((category) => ({ category, count: category === 'massacres' ? total : 0 })),
    killed: { massacreDeaths: 0, victimRecords: 0 },
    months: [],
    undated: total,
    regions,
    victimizers: [],
    victimizersOther: 0,
  };
}

describe('statistics pages', () => {
  afterEach(cleanup);

  it('shades the former SNNP area by the sum of the regions formed from it, and links it to their search', () => {
    const counts = { amhara: 7, sidama: 2, 'south-ethiopia': 3, 'central-ethiopia': 1, unknown: 4 };
    const { container } = render(
      <MemoryRouter>
        <RegionMap statistics={testStatistics(counts)} filters={{ category: ['massacres'] }} />
      </MemoryRouter>,
    );
    const snnp = container.querySelector('a[data-region="snnp"]')!;
    expect(snnp.getAttribute('aria-label')).toMatch(/: 6 records$/);
    const href = new URL(snnp.getAttribute('href')!, 'http://test.invalid');
    expect(href.pathname).toBe('/search');
    expect(href.searchParams.getAll('region').sort()).toEqual([...FORMED_FROM_SNNP].sort());
    expect(href.searchParams.get('category')).toBe('massacres');
    const amhara = container.querySelector('a[data-region="amhara"]')!;
    expect(amhara.getAttribute('aria-label')).toBe('Amhara: 7 records');
    // The darkest shade goes to the largest count, and a region without records is not shaded like one with some.
    const fill = (code: string) => container.querySelector(`a[data-region="${code}"] path`)!.getAttribute('fill');
    expect(fill('amhara')).not.toBe(fill('snnp'));
    expect(fill('afar')).not.toBe(fill('amhara'));
    expect(screen.getByText(/4 records without a recorded region/)).toBeInTheDocument();
  });

  it('lists every region with its count in the table beside the bars', () => {
    render(
      <MemoryRouter>
        <RegionBars statistics={testStatistics({ tigray: 5, unknown: 2 })} filters={{}} />
      </MemoryRouter>,
    );
    const table = screen.getByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(REGION_CODES.length + 2);
    expect(within(within(table).getByRole('row', { name: /Tigray/ })).getByRole('cell')).toHaveTextContent('5');
    expect(within(within(table).getByRole('row', { name: /Unknown region/ })).getByRole('cell')).toHaveTextContent('2');
    expect(screen.getByRole('link', { name: 'Tigray: 5 records' })).toHaveAttribute('href', '/search?region=tigray');
    expect(screen.getByRole('link', { name: 'Unknown region: 2 records' })).toHaveAttribute('href', '/search?region=unknown');
  });

  it("fills the months without records between the first and the last, and knows each month's last day", () => {
    expect(monthRange([{ month: '2023-11', count: 2 }, { month: '2024-02', count: 1 }])).toEqual([
      { month: '2023-11', count: 2 },
      { month: '2023-12', count: 0 },
      { month: '2024-01', count: 0 },
      { month: '2024-02', count: 1 },
    ]);
    expect(lastDayOfMonth('2024-02')).toBe('2024-02-29');
    expect(lastDayOfMonth('2023-12')).toBe('2023-12-31');
  });

  it('reads the filters of the address without their empty fields, repeated ones sorted', () => {
    expect(filtersFromParams(new URLSearchParams('q=&region=tigray&region=afar&from=2021-01-01&to=&confirmed=true'))).toEqual({
      region: ['afar', 'tigray'],
      from: '2021-01-01',
      confirmed: 'true',
    });
  });
});
