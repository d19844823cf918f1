import { Link, useSearchParams } from 'react-router';
import { filtersToSearchParams } from '@app/shared';
import { PageTitle } from '../../components/PageTitle';
import { ErrorNotice, Loading } from '../../components/Status';
import { useTranslation } from '../../lib/i18n';
import { filtersFromParams, useStatistics } from './api';
import { FilterForm } from './FilterForm';
import { RegionMap } from './RegionMap';
import { NoRecords, RegionBars, Totals } from './StatisticsBody';
import './statistics.css';

/** /map: Ethiopia's regions shaded by the number of records matching the filters; a region opens its search. */
export default function MapPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const filters = filtersFromParams(params);
  const { data, error, isPending, refetch } = useStatistics(filters);
  const query = filtersToSearchParams(filters).toString();
  return (
    <section className="statistics statistics-map-page">
      <PageTitle title={t('statistics.map.pageTitle')} />
      <p className="statistics-intro">{t('statistics.map.intro')}</p>
      <FilterForm filters={filters} victimizers={data?.victimizers.map((v) => v.victimizer)} />
      {isPending ? <Loading /> : null}
      {error ? <ErrorNotice error={error} onRetry={() => void refetch()} /> : null}
      {data ? (
        data.total === 0 ? (
          <NoRecords to="/map" />
        ) : (
          <>
            <Totals statistics={data} filters={filters} />
            <RegionMap statistics={data} filters={filters} />
            <RegionBars statistics={data} filters={filters} />
          </>
        )
      ) : null}
      <p>
        <Link to={query ? `/statistics?${query}` : '/statistics'}>{t('statistics.map.allStatistics')}</Link>
      </p>
    </section>
  );
}
