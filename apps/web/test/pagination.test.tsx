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
