import { Link, useSearchParams } from 'react-router';
import { ErrorNotice } from '../../components/Status';
import { useTranslation } from '../../lib/i18n';
import { filtersFromParams, useMapPoints } from './api';
import { PointsTable } from './IncidentPoints';
import { RegionMap } from './RegionMap';
import { RegionBars, Totals } from './StatisticsBody';
import { StatisticsFrame } from './StatisticsFrame';

/**
 * /map: Ethiopia's regions shaded by the number of records matching the filters (a region opens its search), and the
 * massacres and events with coordinates as points over them (a point opens its incident), listed in a table below.
 */
export default function MapPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  // Asked for beside the counts (not once they have come), so the server renders both in one round.
  const points = useMapPoints(filtersFromParams(params));
  return (
    <StatisticsFrame
      className="statistics statistics-map-page"
      title={t('statistics.map.pageTitle')}
      intro={t('statistics.map.intro')}
      path="/map"
      charts={(data, filters) => (
        <>
          <Totals statistics={data} filters={filters} />
          <RegionMap statistics={data} filters={filters} points={points.data?.points} />
          {points.data ? <PointsTable answer={points.data} /> : null}
          {points.error ? <ErrorNotice error={points.error} onRetry={() => void points.refetch()} /> : null}
          <RegionBars statistics={data} filters={filters} />
        </>
      )}
      footer={(query) => (
        <p>
          <Link to={query ? `/statistics?${query}` : '/statistics'}>{t('statistics.map.allStatistics')}</Link>
        </p>
      )}
    />
  );
}
