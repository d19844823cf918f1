import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { filtersToSearchParams, type SearchFilters, type StatisticsResponse } from '@app/shared';
import { PageTitle } from '../../components/PageTitle';
import { ErrorNotice, Loading } from '../../components/Status';
import { filtersFromParams, useStatistics } from './api';
import { Island } from '../../islands/Island';
import { FilterForm } from './FilterForm';
import { NoRecords } from './StatisticsBody';
import './statistics.css';

/**
 * What the statistics and map pages share: the filters read from the address, the title and introduction, the filter
 * form, loading and error states, the empty answer, and the charts of a non-empty answer (`charts`).
 */
export function StatisticsFrame({
  className,
  title,
  intro,
  path,
  charts,
  footer,
}: {
  className: string;
  title: string;
  intro: string;
  /** The page's own path, where "no records" offers to clear the filters. */
  path: string;
  charts: (statistics: StatisticsResponse, filters: Partial<SearchFilters>, query: string) => ReactNode;
  /** Below everything, given the filters' query string (links to the other page with the same filters). */
  footer?: (query: string) => ReactNode;
}) {
  const [params] = useSearchParams();
  const filters = filtersFromParams(params);
  const { data, error, isPending, refetch } = useStatistics(filters);
  const query = filtersToSearchParams(filters).toString();
  return (
    <section className={className}>
      <PageTitle title={title} />
      <p className="statistics-intro">{intro}</p>
      <Island name="statisticsFilters" component={FilterForm} props={{ filters, victimizers: data?.victimizers.map((v) => v.victimizer) ?? [], pathname: path, search: query }} />
      {isPending ? <Loading /> : null}
      {error ? <ErrorNotice error={error} onRetry={() => void refetch()} /> : null}
      {data ? data.total === 0 ? <NoRecords to={path} /> : charts(data, filters, query) : null}
      {footer?.(query)}
    </section>
  );
}
