import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Pagination } from '../src/components/Pagination';
import { renderScreen } from './helpers';

/** Issue 37 item 4: the pager's links carry its own parameters only, never the rest of the address it was shown at. */
describe('the pager', () => {
  afterEach(cleanup);
  const hrefs = () => screen.getAllByRole('link').map((link) => link.getAttribute('href'));

  it('links the previous and next pages with `page` alone, whatever else the address carried', () => {
    renderScreen(<Pagination page={2} total={200} pageSize={50} onPage="address" />, {
      url: '/links?ref=attacker&next=%2F%2Fevil.example&page=2',
    });
    expect(hrefs()).toEqual(['/links', '/links?page=3']);
  });

  it("keeps the list's own parameters it is told to keep (a massacres list's table view)", () => {
    renderScreen(<Pagination page={1} total={200} pageSize={50} onPage="address" keep={['view']} />, {
      url: '/massacres?view=table&utm_source=share&next=%2F%2Fevil.example',
    });
    expect(hrefs()).toEqual(['/massacres?view=table&page=2']);
  });
});

/** Issue 52 item 20: an old link to a page past the end. */
describe('the pager past the end of a list', () => {
  afterEach(cleanup);

  it('says how far the list goes instead of "Page 99 of 1", and links the last page', () => {
    renderScreen(<Pagination page={99} total={120} pageSize={50} onPage="address" />, { url: '/links?page=99' });
    expect(screen.getByRole('navigation')).toHaveTextContent('There is no page 99: this list has 3 pages.');
    expect(screen.queryByText(/Page 99 of/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Last page' })).toHaveAttribute('href', '/links?page=3');
  });

  it('a list of one page is "1 page"', () => {
    renderScreen(<Pagination page={4} total={7} pageSize={50} onPage="address" />, { url: '/links?page=4' });
    expect(screen.getByRole('navigation')).toHaveTextContent('There is no page 4: this list has 1 page.');
    expect(screen.getByRole('link', { name: 'Last page' })).toHaveAttribute('href', '/links');
  });
});
