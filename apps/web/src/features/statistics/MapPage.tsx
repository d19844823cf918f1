import { Link } from 'react-router';
import { useTranslation } from '../../lib/i18n';
import { RegionMap } from './RegionMap';
import { RegionBars, Totals } from './StatisticsBody';
import { StatisticsFrame } from './StatisticsFrame';

/** /map: Ethiopia's regions shaded by the number of records matching the filters; a region opens its search. */
export default function MapPage() {
  const { t } = useTranslation();
  return (
    <StatisticsFrame
      className="statistics statistics-map-page"
      title={t('statistics.map.pageTitle')}
      intro={t('statistics.map.intro')}
      path="/map"
      charts={(data, filters) => (
        <>
          <Totals statistics={data} filters={filters} />
          <RegionMap statistics={data} filters={filters} />
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
