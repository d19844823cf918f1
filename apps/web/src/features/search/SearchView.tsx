import type { FormEvent, ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  API_BASE,
  UNKNOWN_REGION,
  filtersToSearchParams,
  paths,
  regionName,
  type FacetCount,
  type RecordDto,
  type SearchFilters,
  type SearchResponse,
  type SnippetPart,
} from '@app/shared';
import { AdoptLater } from '../../components/AdoptLater';
import { PageTitle } from '../../components/PageTitle';
import { ErrorNotice, Loading } from '../../components/Status';
import { useTranslation } from '../../lib/i18n';
import { useSearch } from './api';
import { paramsOfState, stateFromParams, toggled, type SearchState } from './params';
import './search.css';

type ListFacet = 'category' | 'region' | 'victimizer' | 'killingType';

/** The words a hit was found by, highlighted in the text around them (plain text: React escapes it). */
function Snippet({ parts }: { parts: SnippetPart[] }) {
  if (!parts.length) return null;
  return (
    <p className="search-snippet">
      {parts.map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
    </p>
  );
}

/**
 * One facet as checkboxes with their counts: the values the results have, and those picked even when no result has
 * them any more (so a pick can always be taken back). A tick applies at once; without the app, with the form's button.
 */
function FacetBoxes({
  name,
  counts,
  picked,
  label,
  onToggle,
  approx,
}: {
  name: ListFacet;
  counts: FacetCount[];
  picked: string[];
  label: (value: string) => string;
  onToggle: (value: string, on: boolean) => void;
  /** The counts are estimates (too many matches to count one by one). */
  approx: boolean;
}) {
  const { t } = useTranslation();
  const values = [...counts.map((c) => c.value), ...picked.filter((p) => !counts.some((c) => c.value === p))];
  if (!values.length) return null;
  const countOf = (value: string) => counts.find((c) => c.value === value)?.count ?? 0;
  return (
    <fieldset className="search-facet" data-testid={`facet-${name}`}>
      <legend>{t(`search.facet.${name}`)}</legend>
      <ul>
        {values.map((value) => {
          const id = `facet-${name}-${value.replace(/[^\p{L}\p{N}-]+/gu, '_')}`;
          return (
            <li key={value}>
              <input
                type="checkbox"
                id={id}
                name={name}
                value={value}
                checked={picked.includes(value)}
                onChange={(e) => onToggle(value, e.currentTarget.checked)}
              />
              <label htmlFor={id}>
                {label(value)} <span className="search-count">({approx ? '≈' : ''}{countOf(value)})</span>
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

/** The years the results happened in, each a link to the same search narrowed to that year. */
function YearLinks({ counts, state, approx }: { counts: FacetCount[]; state: SearchState; approx: boolean }) {
  const { t } = useTranslation();
  if (!counts.length) return null;
  const years = [...counts].sort((a, b) => b.value.localeCompare(a.value));
  return (
    <nav className="search-facet" aria-label={t('search.facet.year')}>
      <h2 className="search-facet-title">{t('search.facet.year')}</h2>
      <ul>
        {years.map(({ value, count }) => (
          <li key={value}>
            <Link to={`${paths.search}?${paramsOfState({ filters: { ...state.filters, from: `${value}-01-01`, to: `${value}-12-31` }, cursor: null })}`}>
              {value} <span className="search-count">({approx ? '≈' : ''}{count})</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Links to the open-data export of exactly these filters (the same query string as the search's). */
function DownloadLinks({ filters }: { filters: Partial<SearchFilters> }) {
  const { t } = useTranslation();
  const qs = filtersToSearchParams(filters).toString();
  const suffix = qs ? `?${qs}` : '';
  return (
    <p className="search-download" data-testid="search-download">
      {t('search.download')}: <a href={`${API_BASE}/export.csv${suffix}`}>CSV</a> · <a href={`${API_BASE}/export.ndjson${suffix}`}>NDJSON</a>
    </p>
  );
}

/**
 * /search: words, facets and dates, all in the URL, so a search is a link to share and the back button returns to it.
 * The form is a plain GET form (it works before the app has started); the app applies each change at once.
 * `renderRecord` draws a hit's record (the records feature's card, combined with this one in app/).
 */
export function SearchView({ renderRecord }: { renderRecord: (record: RecordDto, index: number) => ReactNode }) {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const state = stateFromParams(params);
  const { filters } = state;
  const { data, error, isPending, refetch } = useSearch(state);

  const go = (next: SearchState) => setParams(paramsOfState(next));
  const picked = (name: ListFacet) => (filters[name] as string[] | undefined) ?? [];
  const onToggle = (name: ListFacet) => (value: string, on: boolean) => go(toggled(filters, name, value, on));
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const [name, value] of form) if (typeof value === 'string' && value.trim()) next.append(name, value);
    go({ ...stateFromParams(next), cursor: null });
  };
  const facets: SearchResponse['facets'] | undefined = data?.facets;
  const approx = data?.estimated ?? false;
  const confirmedCount = (value: 'true' | 'false') => facets?.confirmed.find((c) => c.value === value)?.count;
  const categoryLabel = (slug: string) => t(`category.${slug}.singular`);
  const regionLabel = (code: string) => (code === UNKNOWN_REGION ? t('region.unknown') : regionName(code, i18n.language));

  return (
    <section className="search-page">
      <PageTitle title={t('search.title')} />
      <form role="search" method="get" action={paths.search} className="search-form" onSubmit={onSubmit} aria-label={t('search.title')}>
        <div className="search-words">
          <label htmlFor="search-q">{t('search.words')}</label>
          <input id="search-q" key={`q-${filters.q ?? ''}`} type="search" name="q" defaultValue={filters.q ?? ''} maxLength={200} aria-describedby="search-q-hint" />
          <button type="submit">{t('search.submit')}</button>
          <p id="search-q-hint" className="search-hint">
            {t('search.hint')}
          </p>
        </div>
        <div className="search-layout">
          <div className="search-filters">
            <h2 className="visually-hidden">{t('search.filters')}</h2>
            <fieldset className="search-facet">
              <legend>{t('search.dates')}</legend>
              <label htmlFor="search-from">{t('search.from')}</label>
              <input id="search-from" key={`from-${filters.from ?? ''}`} type="date" name="from" defaultValue={filters.from ?? ''} />
              <label htmlFor="search-to">{t('search.to')}</label>
              <input id="search-to" key={`to-${filters.to ?? ''}`} type="date" name="to" defaultValue={filters.to ?? ''} />
            </fieldset>
            <div className="search-facet">
              <label htmlFor="search-confirmed">{t('search.facet.confirmed')}</label>
              <select
                id="search-confirmed"
                name="confirmed"
                value={filters.confirmed ?? ''}
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
            </div>
            {facets ? (
              <>
                <FacetBoxes name="category" counts={facets.category} picked={picked('category')} label={categoryLabel} onToggle={onToggle('category')} approx={approx} />
                <FacetBoxes name="region" counts={facets.region} picked={picked('region')} label={regionLabel} onToggle={onToggle('region')} approx={approx} />
                <FacetBoxes name="victimizer" counts={facets.victimizer} picked={picked('victimizer')} label={(v) => v} onToggle={onToggle('victimizer')} approx={approx} />
                <FacetBoxes name="killingType" counts={facets.killingType} picked={picked('killingType')} label={(v) => v} onToggle={onToggle('killingType')} approx={approx} />
                <YearLinks counts={facets.year} state={state} approx={approx} />
              </>
            ) : null}
            <p>
              <button type="submit">{t('search.apply')}</button> <Link to={paths.search}>{t('search.clear')}</Link>
            </p>
          </div>
          <div className="search-results">
            <p className="search-total" role="status" aria-live="polite" aria-atomic="true" data-testid="search-total">
              {data ? t(data.estimated ? 'search.countEstimated' : 'search.count', { count: data.total }) : ''}
            </p>
            {data?.estimated ? <p className="search-note" data-testid="search-estimated">{t('search.estimatedNote')}</p> : null}
            <DownloadLinks filters={filters} />
            {isPending ? (
              <Loading />
            ) : error ? (
              <ErrorNotice error={error} onRetry={() => void refetch()} />
            ) : data.hits.length === 0 ? (
              <p className="empty-state">{t('search.none')}</p>
            ) : (
              <>
                <ol className="search-hits card-list">
                  {data.hits.map((hit, index) => (
                    <li key={hit.record._id} className="search-hit">
                      <AdoptLater>
                        {renderRecord(hit.record, index)}
                        <Snippet parts={hit.snippet} />
                      </AdoptLater>
                    </li>
                  ))}
                </ol>
                <nav className="search-pages" aria-label={t('search.pages')}>
                  {state.cursor ? <Link to={`${paths.search}?${paramsOfState({ filters, cursor: null })}`}>{t('search.first')}</Link> : null}
                  {data.nextCursor ? (
                    <Link to={`${paths.search}?${paramsOfState({ filters, cursor: data.nextCursor })}`} rel="next">
                      {t('search.next')}
                    </Link>
                  ) : null}
                </nav>
              </>
            )}
          </div>
        </div>
      </form>
    </section>
  );
}
