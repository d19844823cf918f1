import { useLayoutEffect, useState } from 'react';
import { appRuns, goTo } from '../../lib/navigate';
import { useTranslation } from '../../lib/translate';
import { filterFocusKept, RESULTS_HEADING_ID, rememberFilterFocus } from './filterFocus';

const FILTERS_ID = 'search-filters';

/** The search form's address without its empty fields, so a search's link stays short and has one spelling. */
function addressOf(form: HTMLFormElement): string {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) if (typeof value === 'string' && value.trim()) params.append(name, value);
  const query = params.toString();
  return `${form.getAttribute('action') ?? window.location.pathname}${query ? `?${query}` : ''}`;
}

/**
 * On a reading page without the app, the search form's filters apply at once, as the app applies them: a ticked facet
 * or a chosen status sends the form, without its empty fields. (In the app its screen does this.) A layout effect:
 * the island is adopted by the first event in its form (islands/registry.ts), within that event, and its listeners
 * must be on the form before that event bubbles up to it (a passive effect would run after it).
 */
function useFiltersApplyAtOnce(): void {
  useLayoutEffect(() => {
    if (appRuns()) return;
    // A keyboard reader who ticked a box finds the focus on it again on the new page, as in the app; one who sent the
    // words, on the results' heading.
    const focused = rememberFilterFocus(null);
    if (focused) document.getElementById(focused)?.focus();
    const form = document.getElementById(FILTERS_ID)?.closest('form');
    if (!form) return;
    const onSubmit = (event: SubmitEvent) => {
      event.preventDefault();
      // A ticked box kept its own focus (onChange); the words or "Apply" leave it on the results' heading.
      if (!filterFocusKept()) rememberFilterFocus(RESULTS_HEADING_ID);
      goTo(addressOf(form));
    };
    const onChange = (event: Event) => {
      const field = event.target as HTMLInputElement | HTMLSelectElement;
      if (field.type !== 'checkbox' && field.tagName !== 'SELECT') return;
      rememberFilterFocus(field.id);
      form.requestSubmit();
    };
    form.addEventListener('submit', onSubmit);
    form.addEventListener('change', onChange);
    return () => {
      form.removeEventListener('submit', onSubmit);
      form.removeEventListener('change', onChange);
    };
  }, []);
}

/**
 * "Filters (n)": below 768px the search's filters fold behind it, so the results come first after every search. An
 * island: it works on a reading page without the app, and there it also makes the filters apply at once.
 */
export function FiltersToggle({ count }: { count: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  useFiltersApplyAtOnce();
  const toggle = () => {
    document.getElementById(FILTERS_ID)?.classList.toggle('is-open', !open);
    setOpen(!open);
  };
  return (
    <button type="button" className="btn btn-secondary search-filters-toggle" aria-expanded={open} aria-controls={FILTERS_ID} onClick={toggle} data-testid="filters-toggle">
      {t('search.filtersButton', { n: count })}
    </button>
  );
}
