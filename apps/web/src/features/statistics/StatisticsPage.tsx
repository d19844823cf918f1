import { Link, useSearchParams } from 'react-router';
import { filtersToSearchParams } from '@app/shared';
import { PageTitle } from '../../components/PageTitle';
import { ErrorNotice, Loading } from '../../components/Status';
import { useTranslation } from '../../lib/i18n';
import { filtersFromParams, useStatistics } from './api';
import { FilterForm } from './FilterForm';
import { MonthChart } from './MonthChart';
import { RegionMap } from './RegionMap';
import { CategoryBars, NoRecords, RegionBars, Totals, VictimizerBars } from './StatisticsBody';
import './statistics.css';

/**
 * /statistics: counts of the records matching the filters (in the address, like /search): totals, per category, per
 * region (map and bars), per month and per perpetrator. Every chart is SVG drawn by the server with its table beside
 * it, and each bar opens the search of its records.
 */
export default function StatisticsPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const filters = filtersFromParams(params);
  const { data, error, isPending, refetch } = useStatistics(filters);
  const query = filtersToSearchParams(filters).toString();
  return (
    <section className="statistics">
      <PageTitle title={t('statistics.title')} />
      <p className="statistics-intro">{t('statistics.intro')}</p>
      <FilterForm filters={filters} victimizers={data?.victimizers.map((v) => v.victimizer)} />
      {isPending ? <Loading /> : null}
      {error ? <ErrorNotice error={error} onRetry={() => void refetch()} /> : null}
      {data ? (
        data.total === 0 ? (
          <NoRecords to="/statistics" />
        ) : (
          <>
            <Totals statistics={data} filters={filters} />
            <CategoryBars statistics={data} filters={filters} />
            <section className="statistics-regions" aria-labelledby="regions-map-title">
              <h2 id="regions-map-title" className="chart-title">
                {t('statistics.map.title')}
              </h2>
              <RegionMap statistics={data} filters={filters} />
              <p>
                <Link to={query ? `/map?${query}` : '/map'}>{t('statistics.map.open')}</Link>
              </p>
            </section>
            <RegionBars statistics={data} filters={filters} />
            <MonthChart statistics={data} filters={filters} />
            <VictimizerBars statistics={data} filters={filters} />
          </>
        )
      ) : null}
    </section>
  );
}
