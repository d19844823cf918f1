import { afterEach, describe, expect, it } from 'vitest';
import { rememberFilterFocus } from '../src/features/search/filterFocus';
import { adoptedAtOnce, reachedThrough } from '../src/islands/registry';

/**
 * When a reading page adopts its islands (islands/registry.ts): the search's filters wait, like the menu, for the
 * reader to reach their form, unless the page before kept a field of theirs to give the focus back to.
 */
describe("the islands' adoption", () => {
  afterEach(() => {
    window.name = '';
    document.body.innerHTML = '';
  });

  it('adopts the search filters when their form is reached, and at once only to give a kept focus back', () => {
    expect(adoptedAtOnce('searchFilters')).toBe(false);
    expect(adoptedAtOnce('menu')).toBe(false);
    expect(adoptedAtOnce('campaign')).toBe(true);
    rememberFilterFocus('facet-region-afar');
    expect(adoptedAtOnce('searchFilters')).toBe(true);
    expect(adoptedAtOnce('menu')).toBe(false);
    expect(rememberFilterFocus(null)).toBe('facet-region-afar');
    expect(adoptedAtOnce('searchFilters')).toBe(false);
  });

  it("is reached through the search form for its filters, through its own markup for any other island", () => {
    document.body.innerHTML = '<form role="search"><island-root data-island="searchFilters"></island-root><div id="search-filters"></div></form><island-root data-island="menu"></island-root>';
    const [filters, menu] = [...document.querySelectorAll<HTMLElement>('island-root')];
    expect(reachedThrough('searchFilters', filters!)).toBe(document.querySelector('form'));
    expect(reachedThrough('menu', menu!)).toBe(menu);
  });
});
