import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SearchResponse } from '@app/shared';
import '../src/lib/i18n';
import { SearchView } from '../src/features/search/SearchView';
import { testRecord } from './fixtures';

/** The search page against a stubbed API answer. Made-up test content and counts only. */

function answer(body: SearchResponse) {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })));
}

const response = (over: Partial<SearchResponse>): SearchResponse => ({
  total: 2,
  estimated: false,
  order: 'relevance',
  hits: [{ record: testRecord({ title: 'Test search hit (test data)' }), snippet: [] }],
  facets: { category: [{ value: 'victims', count: 2 }], region: [], victimizer: [], killingType: [], year: [], confirmed: [] },
  nextCursor: null,
  ...over,
});

const show = () =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={['/search?q=testword']}>
        <SearchView renderRecord={(record) => <p>{record.title}</p>} />
      </MemoryRouter>
    </QueryClientProvider>,
  );

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
