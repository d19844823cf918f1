import { Link } from 'react-router';
import { useTranslation } from '../../lib/i18n';
import { MonthChart } from './MonthChart';
import { RegionMap } from './RegionMap';
import { CategoryBars, RegionBars, Totals, VictimizerBars } from './StatisticsBody';
import { StatisticsFrame } from './StatisticsFrame';

/**
 * /statistics: counts of the records matching the filters (in the address, like /search): totals, per category, per
 * region (map and bars), per month and per perpetrator. Every chart is SVG drawn by the server with its table beside
 * it, and each bar opens the search of its records.
 */
export default function StatisticsPage() {
  const { t } = useTranslation();
  return (
    <StatisticsFrame
      className="statistics"
      title={t('statistics.title')}
      intro={t('statistics.intro')}
      path="/statistics"
      charts={(data, filters, query) => (
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
      )}
    />
  );
}
