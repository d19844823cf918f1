import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { CATEGORIES, can, type RecordDto } from '@app/shared';
import { request, requestPage } from '../../lib/api';
import { formatDateTime } from '../../lib/dates';
import { useSession } from '../../lib/session';
import { PageTitle } from '../../components/PageTitle';
import { ForbiddenNotice } from './ForbiddenNotice';
import { PagedTable } from './PagedTable';
import './admin.css';

const PAGE_SIZE = 50;
type TrashedRecord = RecordDto & { deletedAt?: string | null };

/** /admin/trash: records moved to the trash; admins restore them, a super may purge one for good. */
export default function TrashPage() {
  const { t, i18n } = useTranslation();
  const user = useSession();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [feedback, setFeedback] = useState<{ ok: boolean; text: string } | null>(null);
  const trash = useQuery({
    queryKey: ['admin', 'trash', page],
    queryFn: ({ signal }) => requestPage<TrashedRecord>('/trash', { query: { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
    enabled: can.restore(user),
  });
  const act = useMutation({
    mutationFn: ({ record, purge }: { record: TrashedRecord; purge: boolean }) =>
      purge
        ? request(`/trash/${encodeURIComponent(record._id)}`, { method: 'DELETE' })
        : request(`/trash/${encodeURIComponent(record._id)}/restore`, { method: 'PUT' }),
    onSuccess: (_data, { purge }) => {
      setFeedback({ ok: true, text: t(purge ? 'admin.purged' : 'admin.restored') });
      return queryClient.invalidateQueries();
    },
    onError: (err, { purge }) =>
      setFeedback({ ok: false, text: t('editor.failed', { action: t(purge ? 'admin.purge' : 'admin.restore'), message: err.message }) }),
  });

  const title = t('pages.trash');
  if (!can.restore(user)) return <ForbiddenNotice title={title} />;

  return (
    <section>
      <PageTitle title={title} />
      {feedback ? (
        <p className={feedback.ok ? 'admin-ok' : 'field-error'} role={feedback.ok ? 'status' : 'alert'}>
          {feedback.text}
        </p>
      ) : null}
      <PagedTable
        query={trash}
        headings={[t('admin.title'), t('admin.category'), t('admin.deletedAt'), t('admin.actions')]}
        emptyText={t('admin.trashEmpty')}
        page={page}
        pageSize={PAGE_SIZE}
        onPage={setPage}
        stacked
      >
        {(record) => (
          <tr key={record._id}>
            <td data-label={t('admin.title')}>{record.title}</td>
            <td data-label={t('admin.category')}>{t(CATEGORIES[record.category]?.singular ?? record.category)}</td>
            <td data-label={t('admin.deletedAt')}>{formatDateTime(record.deletedAt, i18n.language)}</td>
            <td data-label={t('admin.actions')}>
              <div className="admin-actions">
                <button
                  type="button"
                  className="btn"
                  disabled={act.isPending}
                  aria-label={`${t('admin.restore')}: ${record.title}`}
                  onClick={() => act.mutate({ record, purge: false })}
                >
                  {t('admin.restore')}
                </button>
                {can.purge(user) ? (
                  <button
                    type="button"
                    className="btn btn-secondary"
                    disabled={act.isPending}
                    aria-label={`${t('admin.purge')}: ${record.title}`}
                    onClick={() => window.confirm(t('admin.confirmPurge')) && act.mutate({ record, purge: true })}
                  >
                    {t('admin.purge')}
                  </button>
                ) : null}
              </div>
            </td>
          </tr>
        )}
      </PagedTable>
    </section>
  );
}
