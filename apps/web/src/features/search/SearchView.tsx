import { Fragment, type FormEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { UNKNOWN_REGION, paths, regionName, type RecordDto, type SearchFilters, type SearchResponse } from '@app/shared';
import { AdoptLater } from '../../components/AdoptLater';
import { PageTitle } from '../../components/PageTitle';
import { ErrorNotice, Loading } from '../../components/Status';
import { ApiError } from '../../lib/api';
import { useTranslation } from '../../lib/translate';
import { Island } from '../../islands/Island';
import { useSearch } from './api';
import { FiltersToggle } from './FiltersToggle';
import { RESULTS_HEADING_ID } from './filterFocus';
import { paramsOfState, stateFromParams, toggled, type SearchState } from './params';
import { DownloadLinks, FacetBoxes, Snippet, YearLinks, type ListFacet } from './SearchParts';
import './search.css';

/** The filters of the form, each a name the server's refusals are keyed by. */
const FILTER_FIELDS = ['q', 'from', 'to', 'confirmed', 'category', 'region', 'victimizer', 'killingType', 'cursor'] as const;
type FilterField = (typeof FILTER_FIELDS)[number];

/** A refused address (400): the server's message per filter; null for any other failure. */
function refusedFilters(error: unknown): Partial<Record<FilterField, string>> | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const fields: Partial<Record<FilterField, string>> = {};
  for (const name of FILTER_FIELDS) {
    const message = error.fields[name];
    if (typeof message === 'string') fields[name] = message;
  }
  return Object.keys(fields).length ? fields : null;
}

/** How many filters are set (the "Filters (n)" button's n): each picked value, each date, the status. */
function countFilters(filters: Partial<SearchFilters>): number {
  const many = (['category', 'region', 'victimizer', 'killingType'] as const).reduce((n, name) => n + (filters[name]?.length ?? 0), 0);
  return many + (filters.from ? 1 : 0) + (filters.to ? 1 : 0) + (filters.confirmed ? 1 : 0);
}

/** Draws a hit's record, with the snippet of the words it was found by where the hit shows it. */
type RenderRecord = (record: RecordDto, index: number, snippet: ReactNode) => ReactNode;

/**
 * /search: words, facets and dates, all in the URL, so a search is a link to share and the back button returns to it.
 * The form is a plain GET form (it works before the app has started); the app applies each change at once.
 * `renderRecord` draws a hit (the records feature's compact hit, combined with this one in app/).
 */
export function SearchView({ renderRecord }: { renderRecord: RenderRecord }) {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const state = stateFromParams(params);
  const { filters } = state;
  const { data, error, isPending, refetch } = useSearch(state);
  const refused = refusedFilters(error);
  const activeFilters = countFilters(filters);

  const go = (next: SearchState) => setParams(paramsOfState(next));
  const picked = (name: ListFacet) => (filters[name] as string[] | undefined) ?? [];
  const onToggle = (name: ListFacet) => (value: string, on: boolean) => go(toggled(filters, name, value, on));
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const [name, value] of form) if (typeof value === 'string' && value.trim()) next.append(name, value);
    go({ ...stateFromParams(next), cursor: null });
    // The words box is drawn anew with the answer (its key), which would drop the focus on the page.
    document.getElementById(RESULTS_HEADING_ID)?.focus();
  };
  // Without an answer (a refused address), the picked values still show, so each can be taken back.
  const facets: SearchResponse['facets'] = data?.facets ?? { category: [], region: [], victimizer: [], killingType: [], year: [], confirmed: [] };
  const approx = data?.estimated ?? false;
  // The lists' names, as the statistics and the Browse menu call them ("Education", not the internal "Blog").
  const categoryLabel = (slug: string) => t(`statistics.categories.${slug}`);
  const regionLabel = (code: string) => (code === UNKNOWN_REGION ? t('region.unknown') : regionName(code, i18n.language));

  return (
    <section className="search-page">
      <PageTitle title={t('search.title')} />
      <form role="search" method="get" action={paths.search} className="search-form" onSubmit={onSubmit} aria-label={t('search.title')}>
        <div className="search-words">
          <label htmlFor="search-q">{t('search.words')}</label>
          <input id="search-q" key={`q-${filters.q ?? ''}`} type="search" name="q" defaultValue={filters.q ?? ''} maxLength={200} aria-describedby={refused?.q ? 'search-q-hint search-q-error' : 'search-q-hint'} aria-invalid={refused?.q ? true : undefined} />
          <button type="submit" className="btn">
            {t('search.submit')}
          </button>
          <p id="search-q-hint" className="search-hint">
            {t('search.hint')}
          </p>
          {refused?.q ? <FieldError id="search-q-error" message={refused.q} /> : null}
        </div>
        <Island name="searchFilters" component={FiltersToggle} props={{ count: activeFilters }} />
        <div className="search-layout">
          <div className={`search-filters${refused ? ' is-open' : ''}`} id="search-filters">
            <h2 className="visually-hidden">{t('search.filters')}</h2>
            <DateFilters filters={filters} refused={refused} />
            <ConfirmedFilter filters={filters} refused={refused} counts={facets.confirmed} approx={approx} go={go} />
            <FacetBoxes name="category" counts={facets.category} picked={picked('category')} label={categoryLabel} onToggle={onToggle('category')} approx={approx} error={refused?.category} />
            <FacetBoxes name="region" counts={facets.region} picked={picked('region')} label={regionLabel} onToggle={onToggle('region')} approx={approx} error={refused?.region} />
            <FacetBoxes name="victimizer" counts={facets.victimizer} picked={picked('victimizer')} label={(v) => v} onToggle={onToggle('victimizer')} approx={approx} error={refused?.victimizer} />
            <FacetBoxes name="killingType" counts={facets.killingType} picked={picked('killingType')} label={(v) => v} onToggle={onToggle('killingType')} approx={approx} error={refused?.killingType} />
            <YearLinks counts={facets.year} state={state} approx={approx} />
            <p className="search-filter-actions">
              <button type="submit" className="btn">
                {t('search.apply')}
              </button>{' '}
              <Link to={paths.search}>{t('search.clear')}</Link>
            </p>
          </div>
          <div className="search-results">
            <div role="status" aria-live="polite" aria-atomic="true">
              <h2 id={RESULTS_HEADING_ID} className="search-total" tabIndex={-1} data-testid="search-total">
                {data ? t(data.estimated ? 'search.countEstimated' : 'search.count', { count: data.total }) : ''}
              </h2>
            </div>
            {data?.estimated ? <p className="search-note" data-testid="search-estimated">{t('search.estimatedNote')}</p> : null}
            <DownloadLinks filters={filters} />
            <SearchHits answer={{ data, error, isPending, refetch }} refused={Boolean(refused)} state={state} renderRecord={renderRecord} />
          </div>
        </div>
      </form>
    </section>
  );
}

function FieldError({ id, message }: { id: string; message: string }) {
  return (
    <p className="field-error" id={id}>
      {message}
    </p>
  );
}

type Refused = Partial<Record<FilterField, string>> | null;

/** From and to, each with the server's refusal beside it. */
function DateFilters({ filters, refused }: { filters: Partial<SearchFilters>; refused: Refused }) {
  const { t } = useTranslation();
  return (
    <fieldset className="search-facet">
      <legend>{t('search.dates')}</legend>
      {(['from', 'to'] as const).map((name) => (
        <Fragment key={name}>
          <label htmlFor={`search-${name}`}>{t(`search.${name}`)}</label>
          <input
            id={`search-${name}`}
            key={`${name}-${filters[name] ?? ''}`}
            type="date"
            name={name}
            defaultValue={filters[name] ?? ''}
            aria-invalid={refused?.[name] ? true : undefined}
            aria-describedby={refused?.[name] ? `search-${name}-error` : undefined}
          />
          {refused?.[name] ? <FieldError id={`search-${name}-error`} message={refused[name]} /> : null}
        </Fragment>
      ))}
    </fieldset>
  );
}

/** Confirmed or not, applied at once, with the answer's counts. */
function ConfirmedFilter({ filters, refused, counts, approx, go }: {
  filters: Partial<SearchFilters>;
  refused: Refused;
  counts: SearchResponse['facets']['confirmed'];
  approx: boolean;
  go: (next: SearchState) => void;
}) {
  const { t } = useTranslation();
  const confirmedCount = (value: 'true' | 'false') => counts.find((c) => c.value === value)?.count;
  return (
    <div className="search-facet">
      <label htmlFor="search-confirmed">{t('search.facet.confirmed')}</label>
      <select
        id="search-confirmed"
        name="confirmed"
        value={filters.confirmed ?? ''}
        aria-invalid={refused?.confirmed ? true : undefined}
        onChange={(e) => go({ filters: { ...filters, confirmed: (e.currentTarget.value || undefined) as SearchFilters['confirmed'] }, cursor: null })}
      >
        <option value="">{t('search.any')}</option>
        <option value="true">
          {t('search.confirmed')}
          {confirmedCount('true') !== undefined ? ` (${approx ? '≈' : ''}${confirmedCount('true')})` : ''}
        </option>
        <option value="false">
          {t('search.notConfirmed')}
          {confirmedCount('false') !== undefined ? ` (${approx ? '≈' : ''}${confirmedCount('false')})` : ''}
        </option>
      </select>
      {refused?.confirmed ? <FieldError id="search-confirmed-error" message={refused.confirmed} /> : null}
    </div>
  );
}

interface SearchAnswer {
  data: SearchResponse | undefined;
  error: unknown;
  isPending: boolean;
  refetch: () => unknown;
}

/** The hits of a page with their snippets, and the links to the first and the next page; or why there are none. */
function SearchHits({ answer, refused, state, renderRecord }: {
  answer: SearchAnswer;
  refused: boolean;
  state: SearchState;
  renderRecord: RenderRecord;
}) {
  const { t } = useTranslation();
  const { data, error, isPending, refetch } = answer;
  const { filters } = state;
  if (isPending) return <Loading />;
  if (refused) {
    return (
      <p className="error-notice" role="alert" data-testid="search-refused">
        {t('search.refused')}
      </p>
    );
  }
  if (error || !data) return <ErrorNotice error={error} onRetry={() => void refetch()} />;
  if (data.hits.length === 0) return <p className="empty-state">{t('search.none')}</p>;
  return (
    <>
      <ol className="search-hits card-list">
        {data.hits.map((hit, index) => (
          <li key={hit.record._id} className="search-hit">
            <AdoptLater>
              {renderRecord(hit.record, index, <Snippet parts={hit.snippet} />)}
            </AdoptLater>
          </li>
        ))}
      </ol>
      <nav className="search-pages" aria-label={t('search.pages')}>
        {state.cursor ? (
          <Link to={`${paths.search}?${paramsOfState({ filters, cursor: null })}`} className="btn btn-secondary">
            {t('search.first')}
          </Link>
        ) : null}
        {data.nextCursor ? (
          <Link to={`${paths.search}?${paramsOfState({ filters, cursor: data.nextCursor })}`} rel="next" className="btn btn-secondary">
            {t('search.next')}
          </Link>
        ) : null}
      </nav>
    </>
  );
}
