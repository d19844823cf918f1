import { Fragment } from 'react';
import { Link } from 'react-router';
import { filtersToSearchParams, paths, type FacetCount, type SearchFilters, type SnippetPart } from '@app/shared';
import { EXPORT_FORMATS, exportHref, FIELD_FORMATS } from '../../lib/exportLinks';
import { useTranslation } from '../../lib/i18n';
import { paramsOfState, type SearchState } from './params';

/** The parts of the search page: a hit's snippet, the facets, the years and the downloads. */

export type ListFacet = 'category' | 'region' | 'victimizer' | 'killingType';

/** The words a hit was found by, highlighted in the text around them (plain text: React escapes it). */
export function Snippet({ parts }: { parts: SnippetPart[] }) {
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
export function FacetBoxes({
  name,
  counts,
  picked,
  label,
  onToggle,
  approx,
  error,
}: {
  name: ListFacet;
  counts: FacetCount[];
  picked: string[];
  label: (value: string) => string;
  onToggle: (value: string, on: boolean) => void;
  /** The counts are estimates (too many matches to count one by one). */
  approx: boolean;
  /** The server's refusal of this filter's value in the address. */
  error?: string;
}) {
  const { t } = useTranslation();
  const values = [...counts.map((c) => c.value), ...picked.filter((p) => !counts.some((c) => c.value === p))];
  if (!values.length) return null;
  const countOf = (value: string) => counts.find((c) => c.value === value)?.count ?? 0;
  return (
    <fieldset className="search-facet" data-testid={`facet-${name}`} aria-invalid={error ? true : undefined} aria-describedby={error ? `facet-${name}-error` : undefined}>
      <legend>{t(`search.facet.${name}`)}</legend>
      {error ? (
        <p className="field-error" id={`facet-${name}-error`}>
          {error}
        </p>
      ) : null}
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
export function YearLinks({ counts, state, approx }: { counts: FacetCount[]; state: SearchState; approx: boolean }) {
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

/** The open-data downloads of exactly these filters (the same query string as the search's), and what they are. */
export function DownloadLinks({ filters }: { filters: Partial<SearchFilters> }) {
  const { t } = useTranslation();
  const qs = filtersToSearchParams(filters).toString();
  return (
    <p className="search-download" data-testid="search-download">
      {t('search.download')}:{' '}
      {EXPORT_FORMATS.map((format, i) => (
        <Fragment key={format.key}>
          {i > 0 ? ' · ' : null}
          <a href={exportHref(format, filters)}>{t(`export.format.${format.key}`)}</a>
        </Fragment>
      ))}{' '}
      (<Link to={`${paths.exportData}${qs ? `?${qs}` : ''}`}>{t('search.aboutDownloads')}</Link>)
      <br />
      {/* These take no filters: labelled as holding every record, so nobody takes them for the search's. */}
      <span data-testid="search-download-field">
        {t('search.fieldDownload')}:{' '}
        {FIELD_FORMATS.filter((format) => format.key !== 'hdx').map((format, i) => (
          <Fragment key={format.key}>
            {i > 0 ? ' · ' : null}
            <a href={format.href}>{t(`export.format.${format.key}`)}</a>
          </Fragment>
        ))}
      </span>
    </p>
  );
}

