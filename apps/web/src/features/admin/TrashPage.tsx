import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { CATEGORIES, can, type RecordDto } from '@app/shared';
import { request, requestPage } from '../../lib/api';
import { formatDateTime } from '../../lib/dates';
import { useSession } from '../../lib/session';
import { PageTitle } from '../../components/PageTitle';
import { AdminFeedback, type Feedback } from './AdminFeedback';
import { ForbiddenNotice } from './ForbiddenNotice';
import { PagedTable, usePaging } from './PagedTable';
import './admin.css';

const PAGE_SIZE = 50;
type TrashedRecord = RecordDto & { deletedAt?: string | null };

/** /admin/trash: records moved to the trash; admins restore them, a super may purge one for good. */
export default function TrashPage() {
  const { t, i18n } = useTranslation();
  const user = useSession();
  const queryClient = useQueryClient();
  const paging = usePaging(PAGE_SIZE);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const trash = useQuery({
    queryKey: ['admin', 'trash', paging.page],
    queryFn: ({ signal }) => requestPage<TrashedRecord>('/trash', { query: { limit: PAGE_SIZE, offset: paging.offset }, signal }),
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
      <AdminFeedback feedback={feedback} />
      <PagedTable
        query={trash}
        columns={[
          { heading: t('admin.title'), cell: (record) => record.title },
          { heading: t('admin.category'), cell: (record) => t(CATEGORIES[record.category]?.singular ?? record.category) },
          { heading: t('admin.deletedAt'), cell: (record) => formatDateTime(record.deletedAt, i18n.language) },
          {
            heading: t('admin.actions'),
            cell: (record) => <TrashActions record={record} busy={act.isPending} mayPurge={can.purge(user)} onAct={(purge) => act.mutate({ record, purge })} />,
          },
        ]}
        rowKey={(record) => record._id}
        emptyText={t('admin.trashEmpty')}
        paging={paging}
      />
    </section>
  );
}

/** A trashed record's buttons: restore it, and for a super purge it for good (asked first). */
function TrashActions({ record, busy, mayPurge, onAct }: { record: TrashedRecord; busy: boolean; mayPurge: boolean; onAct: (purge: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <div className="admin-actions">
      <button type="button" className="btn" disabled={busy} aria-label={`${t('admin.restore')}: ${record.title}`} onClick={() => onAct(false)}>
        {t('admin.restore')}
      </button>
      {mayPurge ? (
        <button
          type="button"
          className="btn btn-secondary"
          disabled={busy}
          aria-label={`${t('admin.purge')}: ${record.title}`}
          onClick={() => window.confirm(t('admin.confirmPurge')) && onAct(true)}
        >
          {t('admin.purge')}
        </button>
      ) : null}
    </div>
  );
}
