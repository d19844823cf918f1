import { Link, useLocation } from 'react-router';
import { filtersToSearchParams, regionName, REGIONS, UNKNOWN_REGION, type SearchFilters, type StatisticsResponse } from '@app/shared';
import { EmptyState } from '../../components/Status';
import { useTranslation } from '../../lib/i18n';
import { searchHref } from './api';
import { BarChart, type BarRow } from './BarChart';

/** Which records the counts hold, as the "People killed" figure says it, and the way to the other choice. */
const COUNTED = { any: 'statistics.countedAll', true: 'statistics.countedConfirmed', false: 'statistics.countedUnconfirmed' } as const;

/**
 * The headline numbers: records, people killed in massacres, victims recorded. "People killed" says whether records
 * not yet confirmed are counted, with a link to count confirmed records only (or all of them again).
 */
export function Totals({ statistics, filters }: { statistics: StatisticsResponse; filters: Partial<SearchFilters> }) {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  const number = new Intl.NumberFormat(i18n.language);
  const hrefWith = (confirmed: SearchFilters['confirmed'] | undefined) => {
    const query = filtersToSearchParams({ ...filters, confirmed }).toString();
    return query ? `${pathname}?${query}` : pathname;
  };
  return (
    <dl className="statistics-totals">
      <div>
        <dt>{t('statistics.total')}</dt>
        <dd>
          <a href={searchHref(filters, {})}>{number.format(statistics.total)}</a>
        </dd>
      </div>
      <div>
        <dt>{t('statistics.massacreDeaths')}</dt>
        <dd>{number.format(statistics.killed.massacreDeaths)}</dd>
        <dd className="statistics-counted" data-testid="killed-counted">
          {t(COUNTED[filters.confirmed ?? 'any'])}{' '}
          {filters.confirmed === 'true' ? (
            <Link to={hrefWith(undefined)}>{t('statistics.countAll')}</Link>
          ) : (
            <Link to={hrefWith('true')}>{t('statistics.countConfirmedOnly')}</Link>
          )}
        </dd>
      </div>
      <div>
        <dt>{t('statistics.victimRecords')}</dt>
        <dd>{number.format(statistics.killed.victimRecords)}</dd>
      </div>
    </dl>
  );
}

/** Per region as bars and a table, the regions of the shared list in order, then those without a region. */
export function RegionBars({ statistics, filters }: { statistics: StatisticsResponse; filters: Partial<SearchFilters> }) {
  const { t, i18n } = useTranslation();
  const rows: BarRow[] = statistics.regions.map((r) => ({
    key: r.region,
    label: r.region === UNKNOWN_REGION ? t('region.unknown') : regionName(r.region, i18n.language),
    count: r.count,
    href: searchHref(filters, { region: [r.region as (typeof REGIONS)[number]['code']] }),
  }));
  return <BarChart id="regions" title={t('statistics.byRegion')} rows={rows} nameHeading={t('statistics.region')} />;
}

export function CategoryBars({ statistics, filters }: { statistics: StatisticsResponse; filters: Partial<SearchFilters> }) {
  const { t } = useTranslation();
  const rows: BarRow[] = statistics.categories.map((c) => ({
    key: c.category,
    label: t(`statistics.categories.${c.category}`),
    count: c.count,
    href: searchHref(filters, { category: [c.category] }),
  }));
  return <BarChart id="categories" title={t('statistics.byCategory')} rows={rows} nameHeading={t('statistics.category')} />;
}

export function VictimizerBars({ statistics, filters }: { statistics: StatisticsResponse; filters: Partial<SearchFilters> }) {
  const { t } = useTranslation();
  const rows: BarRow[] = statistics.victimizers.map((v) => ({
    key: v.victimizer ?? '',
    label: v.victimizer ?? t('region.none'),
    count: v.count,
    // Search has no filter for "no perpetrator recorded".
    href: v.victimizer ? searchHref(filters, { victimizer: [v.victimizer] }) : undefined,
  }));
  if (statistics.victimizersOther) rows.push({ key: '\u0000others', label: t('statistics.others'), count: statistics.victimizersOther });
  return <BarChart id="victimizers" title={t('statistics.byVictimizer')} rows={rows} nameHeading={t('statistics.victimizer')} />;
}

/** What a page shows when nothing matches, with the way back to all records. */
export function NoRecords({ to }: { to: string }) {
  const { t } = useTranslation();
  return (
    <>
      <EmptyState text={t('statistics.noRecords')} />
      <p>
        <Link to={to}>{t('statistics.clear')}</Link>
      </p>
    </>
  );
}
