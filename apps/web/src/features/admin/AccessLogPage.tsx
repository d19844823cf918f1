import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { can, type AccessLogEntry } from '@app/shared';
import { PageTitle } from '../../components/PageTitle';
import { requestBlob, requestPage } from '../../lib/api';
import { formatDate } from '../../lib/dates';
import { useTranslation } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import { AdminFeedback, type Feedback } from './AdminFeedback';
import { ForbiddenNotice } from './ForbiddenNotice';
import { PagedTable, usePaging, type Column } from './PagedTable';
import './admin.css';

const PAGE_SIZE = 50;

/** /admin/access-log (admin, super): who read which private record or withheld testimony, when, from which session. */
export default function AccessLogPage() {
  const { t, i18n } = useTranslation();
  const allowed = can.readAudit(useSession());
  const paging = usePaging(PAGE_SIZE);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const entries = useQuery({
    queryKey: ['admin', 'access-log', paging.page],
    queryFn: ({ signal }) => requestPage<AccessLogEntry>('/access-log', { query: { limit: PAGE_SIZE, offset: paging.offset }, signal }),
    placeholderData: keepPreviousData,
    enabled: allowed,
  });
  const title = t('pages.accessLog');
  if (!allowed) return <ForbiddenNotice title={title} />;
  const download = async () => {
    try {
      const blob = await requestBlob('/access-log/export.csv');
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `access-log-${new Date().toISOString().slice(0, 10)}.csv`;
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (err) {
      setFeedback({ ok: false, text: t('accounts.failed', { message: err instanceof Error ? err.message : String(err) }) });
    }
  };
  const columns: Column<AccessLogEntry>[] = [
    { heading: t('accounts.when'), cell: (e) => formatDate(e.at, i18n.language) },
    { heading: t('accounts.name'), cell: (e) => e.userName ?? e.userId },
    { heading: t('accounts.record'), cell: (e) => <code>{`${e.category}/${e.recordId}`}</code> },
    { heading: t('accounts.kind'), cell: (e) => t(e.kind === 'private' ? 'accounts.kindPrivate' : 'accounts.kindWithheld') },
    { heading: t('accounts.session'), cell: (e) => <code>{e.sessionId?.slice(0, 8) ?? ''}</code> },
  ];
  return (
    <section>
      <PageTitle title={title} />
      <p>{t('accounts.accessLogText')}</p>
      <AdminFeedback feedback={feedback} />
      <p>
        <button type="button" className="btn btn-secondary" onClick={() => void download()}>
          {t('accounts.exportCsv')}
        </button>
      </p>
      <PagedTable query={entries} columns={columns} rowKey={(e) => `${e.at}-${e.recordId}-${e.userId}`} emptyText={t('accounts.accessLogEmpty')} paging={paging} />
    </section>
  );
}
