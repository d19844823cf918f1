const FOCUS_MARK = 'search-filter-focus:';

/**
 * The results' heading (their count), where a search sent from the form leaves the focus: the words box it was sent
 * from is drawn anew with the answer, and a focus left on nothing would start a keyboard reader at the page's top.
 */
export const RESULTS_HEADING_ID = 'search-results-heading';

/**
 * Keeps the id of the field that sent the search form for the next page (`id`), or takes the kept one (null). In the
 * tab's name, which the next page of this site reads for free: sessionStorage cost every search page a synchronous
 * trip to the browser process (about 13 ms of a page load's script time) to find nothing there in most visits. The
 * browser clears the name when the tab goes to another site.
 */
export function rememberFilterFocus(id: string | null): string | null {
  if (id !== null) {
    window.name = `${FOCUS_MARK}${id}`;
    return id;
  }
  if (!filterFocusKept()) return null;
  const kept = window.name.slice(FOCUS_MARK.length);
  window.name = '';
  return kept;
}

/** Whether the page before kept a field to focus (without taking it). */
export const filterFocusKept = (): boolean => window.name.startsWith(FOCUS_MARK);
