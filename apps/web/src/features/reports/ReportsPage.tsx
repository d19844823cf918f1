import { useTranslation } from '../../lib/i18n';
import { PageTitle } from '../../components/PageTitle';
import { Pagination, usePageParam } from '../../components/Pagination';
import { EmptyState, ErrorNotice } from '../../components/Status';
import { formatReportDate } from '../../lib/dates';
import { REPORTS_PAGE_SIZE, useReportsPage } from './api';
import spinnerUrl from './spinner.svg';
import './reports.css';

/** The reports' loading image, announced as "Loading...". */
function LoadingImage() {
  const { t } = useTranslation();
  return (
    <div className="reports-loading" role="status">
      <img src={spinnerUrl} alt={t('common.loading')} width={48} height={48} />
    </div>
  );
}

/** /reports: the campaign letters that were delivered, newest first, with "Reported on" dates; ?page= pages. */
export default function ReportsPage() {
  const { t, i18n } = useTranslation();
  const page = usePageParam();
  const reports = useReportsPage(page);
  return (
    <section className="reports">
      <PageTitle title={t('pages.reports')} />
      {reports.isPending ? <LoadingImage /> : null}
      {reports.isError ? <ErrorNotice error={reports.error} onRetry={() => void reports.refetch()} /> : null}
      {reports.data ? (
        reports.data.items.length === 0 ? (
          <EmptyState text={t('empty.report')} />
        ) : (
          <>
            <ul className="reports-list" aria-busy={reports.isPlaceholderData || undefined}>
              {reports.data.items.map((report) => (
                <li key={report._id}>
                  <article className="report" aria-labelledby={`report-${report._id}`}>
                    <h2 id={`report-${report._id}`}>{report.title}</h2>
                    <p className="report-message">{report.message}</p>
                    <p className="report-date">
                      {t('reports.reportedOn')} <time dateTime={report.createdAt}>{formatReportDate(report.createdAt, i18n.language)}</time>
                    </p>
                  </article>
                </li>
              ))}
            </ul>
            <Pagination page={page} total={reports.data.total} pageSize={REPORTS_PAGE_SIZE} onPage="address" />
          </>
        )
      ) : null}
    </section>
  );
}
