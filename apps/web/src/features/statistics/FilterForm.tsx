import { useState, type FormEvent, type ReactNode } from 'react';
import { CATEGORY_SLUGS, REGIONS, regionName, UNKNOWN_REGION, type SearchFilters } from '@app/shared';
import { goTo } from '../../lib/navigate';
import { useTranslation } from '../../lib/translate';

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';

/** How many filters are set: the words, each picked value, each date, the status. */
function countFilters(filters: Partial<SearchFilters>): number {
  const many = (['category', 'region', 'victimizer', 'killingType'] as const).reduce((n, name) => n + (filters[name]?.length ?? 0), 0);
  return many + (filters.q ? 1 : 0) + (filters.from ? 1 : 0) + (filters.to ? 1 : 0) + (filters.confirmed ? 1 : 0);
}

export interface FilterFormProps {
  filters: Partial<SearchFilters>;
  victimizers?: (string | null)[];
  /** The page's path, where the form is sent. */
  pathname: string;
  /** The filters' query string (the form starts again from the address's filters when it changes). */
  search: string;
}

/** A labelled field of the form. */
function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="statistics-field">
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}

/** The form's fields, each starting from the address's filters. */
function FilterFields({ filters, victimizers }: { filters: Partial<SearchFilters>; victimizers: string[] }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <Field id="statistics-q" label={t('statistics.words')}>
        <input type="search" id="statistics-q" name="q" defaultValue={filters.q ?? ''} maxLength={200} />
      </Field>
      <Field id="statistics-category" label={t('statistics.category')}>
        <select id="statistics-category" name="category" defaultValue={first(filters.category)}>
          <option value="">{t('statistics.any')}</option>
          {CATEGORY_SLUGS.map((slug) => (
            <option key={slug} value={slug}>
              {t(`statistics.categories.${slug}`)}
            </option>
          ))}
        </select>
      </Field>
      <Field id="statistics-region" label={t('statistics.region')}>
        <select id="statistics-region" name="region" defaultValue={first(filters.region)}>
          <option value="">{t('statistics.any')}</option>
          {REGIONS.map((r) => (
            <option key={r.code} value={r.code}>
              {regionName(r.code, i18n.language)}
            </option>
          ))}
          <option value={UNKNOWN_REGION}>{t('region.unknown')}</option>
        </select>
      </Field>
      <Field id="statistics-victimizer" label={t('statistics.victimizer')}>
        <input id="statistics-victimizer" name="victimizer" defaultValue={first(filters.victimizer)} list="statistics-victimizers" maxLength={300} />
      </Field>
      {victimizers.length ? (
        <datalist id="statistics-victimizers">
          {victimizers.map((v) => (
            <option key={v} value={v} />
          ))}
        </datalist>
      ) : null}
      <Field id="statistics-killingType" label={t('statistics.killingType')}>
        <input id="statistics-killingType" name="killingType" defaultValue={first(filters.killingType)} maxLength={300} />
      </Field>
      <Field id="statistics-from" label={t('statistics.from')}>
        <input type="date" id="statistics-from" name="from" defaultValue={filters.from ?? ''} />
      </Field>
      <Field id="statistics-to" label={t('statistics.to')}>
        <input type="date" id="statistics-to" name="to" defaultValue={filters.to ?? ''} />
      </Field>
      <Field id="statistics-confirmed" label={t('statistics.confirmed')}>
        <select id="statistics-confirmed" name="confirmed" defaultValue={filters.confirmed ?? ''}>
          <option value="">{t('statistics.any')}</option>
          <option value="true">{t('common.confirmed')}</option>
          <option value="false">{t('common.notConfirmed')}</option>
        </select>
      </Field>
    </>
  );
}

/**
 * An island (it works on a reading page without the app, whose charts are never adopted).
 * The filters of search, as a small form whose state is the address: a plain GET form (it works before the app has
 * loaded), which the app submits without its empty fields so the address stays short and shareable. Below 768px the
 * form folds behind "Filters (n)", so a phone shows the counts and the map on its first screen.
 */
export function FilterForm({ filters, victimizers, pathname, search }: FilterFormProps) {
  const { t } = useTranslation();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(event.currentTarget)) if (typeof value === 'string' && value.trim()) params.append(name, value.trim());
    const query = params.toString();
    goTo(query ? `${pathname}?${query}` : pathname);
  };
  const [open, setOpen] = useState(false);
  const known = victimizers?.filter((v): v is string => Boolean(v)) ?? [];
  return (
    <>
      <button
        type="button"
        className="btn btn-secondary statistics-filters-toggle"
        aria-expanded={open}
        aria-controls="statistics-filters"
        onClick={() => setOpen((was) => !was)}
      >
        {t('search.filtersButton', { n: countFilters(filters) })}
      </button>
      <form key={search} id="statistics-filters" className={`statistics-filters${open ? ' is-open' : ''}`} method="get" action={pathname} onSubmit={onSubmit} aria-label={t('statistics.filters')}>
        <FilterFields filters={filters} victimizers={known} />
        <div className="statistics-filter-actions">
          <button type="submit">{t('statistics.apply')}</button>
          <a href={pathname}>{t('statistics.clear')}</a>
        </div>
      </form>
    </>
  );
}
