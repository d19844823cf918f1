import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SearchResponse } from '@app/shared';
import '../src/lib/i18n';
import { SearchView } from '../src/features/search/SearchView';
import { testRecord } from './fixtures';
import { json, mockFetch, renderScreen } from './helpers';

/** The search page against a stubbed API answer. Made-up test content and counts only. */

const answer = (body: SearchResponse) => mockFetch(() => json(body));

const response = (over: Partial<SearchResponse>): SearchResponse => ({
  total: 2,
  estimated: false,
  order: 'relevance',
  hits: [{ record: testRecord({ title: 'Test search hit (test data)' }), snippet: [] }],
  facets: { category: [{ value: 'victims', count: 2 }], region: [], victimizer: [], killingType: [], year: [], confirmed: [] },
  nextCursor: null,
  ...over,
});

/** The search page at `url`, each hit shown as its title. */
const showAt = (url: string) => renderScreen(<SearchView renderRecord={(record) => <p>{record.title}</p>} />, { url });
const show = () => showAt('/search?q=testword');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('search page', () => {
  it('shows an exact count as it is, with no note', async () => {
    answer(response({}));
    show();
    expect(await screen.findByText('Test search hit (test data)')).toBeInTheDocument();
    expect(screen.getByTestId('search-total')).toHaveTextContent('2 records found');
    expect(screen.queryByTestId('search-estimated')).toBeNull();
    expect(screen.getByLabelText(/Victim/)).toBeInTheDocument();
    expect(screen.getByTestId('facet-category')).toHaveTextContent('(2)');
  });

  it('says "about" and marks facet counts as estimates when the server estimated them, and why the order is newest', async () => {
    answer(response({ total: 21_000, estimated: true, order: 'newest', facets: { ...response({}).facets, category: [{ value: 'victims', count: 21_000 }] } }));
    show();
    expect(await screen.findByText('Test search hit (test data)')).toBeInTheDocument();
    expect(screen.getByTestId('search-total')).toHaveTextContent('About 21000 records found');
    expect(screen.getByTestId('search-estimated')).toHaveTextContent(/newest first/);
    expect(screen.getByTestId('facet-category')).toHaveTextContent('(≈21000)');
  });
});

describe('search page by keyboard', () => {
  it("leaves the focus on the results' heading after a search sent with Enter (issue 52 item 17)", async () => {
    const user = userEvent.setup();
    answer(response({}));
    show();
    expect(await screen.findByText('Test search hit (test data)')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Words or names'));
    await user.type(screen.getByLabelText('Words or names'), 'otherword{Enter}');
    const heading = screen.getByRole('heading', { name: '2 records found' });
    expect(heading).toHaveFocus();
    expect(heading).toHaveAttribute('id', 'search-results-heading');
  });
});

describe('search page on a phone and with a refused address', () => {
  it('"Filters (n)" counts the filters set and opens the panel; the results come before it in the page', async () => {
    answer(response({}));
    showAt('/search?q=testword&region=amhara&region=afar&from=2020-01-01');
    const toggle = screen.getByTestId('filters-toggle');
    expect(toggle).toHaveTextContent('Filters (3)');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(document.getElementById('search-filters')).not.toHaveClass('is-open');
    toggle.click();
    expect(await screen.findByRole('button', { name: 'Filters (3)', expanded: true })).toBeInTheDocument();
    expect(document.getElementById('search-filters')).toHaveClass('is-open');
    // The site's button style on the form's buttons.
    for (const name of ['Search', 'Apply filters']) expect(screen.getByRole('button', { name })).toHaveClass('btn');
  });

  it("a refused parameter shows the field's error under it, the filters kept, not 'Something went wrong'", async () => {
    mockFetch(() => json({ from: 'Must be a day (YYYY-MM-DD)', region: 'Not a region' }, 400));
    showAt('/search?q=testword&from=yesterday&region=nowhere');
    expect(await screen.findByTestId('search-refused')).toHaveTextContent('A filter in this address is not valid');
    expect(screen.queryByText(/Something went wrong/)).toBeNull();
    const from = screen.getByLabelText('From');
    expect(from).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById(from.getAttribute('aria-describedby')!)).toHaveTextContent('Must be a day (YYYY-MM-DD)');
    expect(screen.getByTestId('facet-region')).toHaveTextContent('Not a region');
    expect(screen.getByTestId('facet-region').querySelector('input[value="nowhere"]')).toBeChecked();
    expect(screen.getByLabelText('Words or names')).toHaveValue('testword');
    // The panel is open, so the error is seen on a phone too.
    expect(document.getElementById('search-filters')).toHaveClass('is-open');
  });
});
