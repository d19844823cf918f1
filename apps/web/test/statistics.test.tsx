import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { CATEGORY_SLUGS, REGION_CODES, type StatisticsResponse } from '@app/shared';
import { filtersFromParams } from '../src/features/statistics/api';
import { lastDayOfMonth, MonthChart, monthRange } from '../src/features/statistics/MonthChart';
import { FORMED_FROM_SNNP, RegionMap } from '../src/features/statistics/RegionMap';
import { RegionBars, Totals, VictimizerBars } from '../src/features/statistics/StatisticsBody';
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

describe('statistics pages', { timeout: 20_000 }, () => {
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
    expect(screen.getByRole('link', { name: 'Tigray 5 records' })).toHaveAttribute('href', '/search?region=tigray');
    expect(screen.getByRole('link', { name: 'Unknown region 2 records' })).toHaveAttribute('href', '/search?region=unknown');
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

describe('statistics on a phone', { timeout: 20_000 }, () => {
  afterEach(cleanup);

  it('"People killed" says whether unconfirmed records are counted, with a way to count confirmed ones only and back', () => {
    const stats = { ...testStatistics({ amhara: 3 }), killed: { massacreDeaths: 12, victimRecords: 2 } };
    const { unmount } = render(
      <MemoryRouter initialEntries={['/statistics?region=amhara']}>
        <Totals statistics={stats} filters={{ region: ['amhara'] }} />
      </MemoryRouter>,
    );
    const counted = screen.getByTestId('killed-counted');
    expect(counted).toHaveTextContent('Counts confirmed and not yet confirmed records.');
    expect(within(counted).getByRole('link', { name: 'Count confirmed records only' })).toHaveAttribute('href', '/statistics?region=amhara&confirmed=true');
    unmount();
    render(
      <MemoryRouter initialEntries={['/map?confirmed=true']}>
        <Totals statistics={stats} filters={{ confirmed: 'true' }} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('killed-counted')).toHaveTextContent('Counts confirmed records only.');
    expect(screen.getByRole('link', { name: 'Count every record' })).toHaveAttribute('href', '/map');
  });

  it('the monthly chart names every month under its bar and says it scrolls when long', () => {
    const months = Array.from({ length: 12 }, (_, i) => ({ month: `2023-${String(i + 1).padStart(2, '0')}`, count: i + 1 }));
    const { container } = render(
      <MemoryRouter>
        <MonthChart statistics={{ ...testStatistics({}), months }} filters={{}} />
      </MemoryRouter>,
    );
    const labels = [...container.querySelectorAll('svg text')].map((t) => t.textContent);
    expect(labels).toEqual(expect.arrayContaining(['Jan', 'Feb', 'Jun', 'Dec', '2023']));
    expect(screen.getByRole('region', { name: 'Records per month (scrolls sideways)' })).toHaveAttribute('tabindex', '0');
    // Drawn at its own size (36 px a month), so its 12 px labels are not scaled down.
    expect(container.querySelector('svg')!.getAttribute('width')).toBe(String(12 * 36 + 8));
  });

  it('bars are HTML at the page text size, with whole names (no cut with an ellipsis)', () => {
    const long = 'A perpetrator name much longer than twenty-eight characters (test data)';
    const stats = { ...testStatistics({ amhara: 2 }), victimizers: [{ victimizer: long, count: 2 }] };
    render(
      <MemoryRouter>
        <VictimizerBars statistics={stats} filters={{}} />
      </MemoryRouter>,
    );
    const bar = screen.getByRole('link', { name: `${long} 2 records` });
    expect(bar.tagName).toBe('A');
    expect(bar.closest('svg')).toBeNull();
    expect(bar.querySelector('.bar-label')).toHaveTextContent(long);
  });
});

describe('the map names its regions', { timeout: 20_000 }, () => {
  afterEach(cleanup);

  it('lists every region with its count beside the map, each linking like its area, and labels the larger areas', () => {
    const { container } = render(
      <MemoryRouter>
        <RegionMap statistics={testStatistics({ amhara: 4, afar: 1 })} filters={{}} />
      </MemoryRouter>,
    );
    const names = within(screen.getByRole('list', { name: 'Regions and their records' })).getAllByRole('link');
    expect(names.map((a) => a.textContent)).toEqual(expect.arrayContaining(['Amhara (4)', 'Afar (1)', 'Harari (0)']));
    const amhara = names.find((a) => a.textContent === 'Amhara (4)')!;
    expect(amhara.getAttribute('href')).toBe(container.querySelector('svg a[data-region="amhara"]')!.getAttribute('href'));
    expect([...container.querySelectorAll('.region-map-label')].map((t) => t.textContent)).toEqual(expect.arrayContaining(['Amhara', 'Oromia', 'Tigray']));
    // Pointing at a name lights its area (and the reverse): a rule per region.
    // Unquoted: the server's renderer escapes quotes in a <style>'s text, which would break the rules on its page.
    expect(container.querySelector('style')!.textContent).toContain('.region-map:has(.region-map-names [data-region=amhara]:is(:hover, :focus-visible)) .region-map-link[data-region=amhara]');
    expect(container.querySelector('style')!.textContent).not.toContain('"');
  });
});
