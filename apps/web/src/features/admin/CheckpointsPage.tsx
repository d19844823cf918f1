import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { can } from '@app/shared';
import { PageTitle } from '../../components/PageTitle';
import { request } from '../../lib/api';
import { formatDateTime } from '../../lib/dates';
import { useTranslation } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import { AdminFeedback, type Feedback } from './AdminFeedback';
import { ForbiddenNotice } from './ForbiddenNotice';
import { PagedTable, usePaging } from './PagedTable';
import './admin.css';

/** A signed checkpoint of the audit chain's head, as GET /audit/checkpoints lists them (oldest first). */
interface Checkpoint {
  seq: number;
  hash: string;
  at: string;
  keyId: string;
  signature: string;
  timestampedAt: string | null;
}

const PAGE_SIZE = 50;
const checkpointsKey = ['admin', 'checkpoints'] as const;

/**
 * /admin/checkpoints: the signed checkpoints of the audit log's head, newest first (public data: anyone may keep
 * them and the site's key, /.well-known/audit-key, to detect a rewritten log), and a button to sign the head now.
 */
export default function CheckpointsPage() {
  const { t, i18n } = useTranslation();
  const user = useSession();
  const allowed = can.readAudit(user);
  const queryClient = useQueryClient();
  const paging = usePaging(PAGE_SIZE);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const checkpoints = useQuery({
    queryKey: checkpointsKey,
    queryFn: ({ signal }) => request<Checkpoint[]>('/audit/checkpoints', { signal }),
    enabled: allowed,
  });
  const sign = useMutation({
    mutationFn: () => request<Checkpoint | null>('/audit/checkpoints', { method: 'POST', body: {} }),
    onSuccess: (made) => {
      setFeedback({ ok: true, text: made ? t('admin.checkpointSigned', { seq: made.seq }) : t('admin.checkpointUpToDate') });
      paging.setPage(1);
      return queryClient.invalidateQueries({ queryKey: checkpointsKey });
    },
    onError: (err) => setFeedback({ ok: false, text: t('editor.failed', { action: t('admin.signCheckpoint'), message: err.message }) }),
  });

  const title = t('pages.checkpoints');
  if (!allowed) return <ForbiddenNotice title={title} />;
  const newestFirst = checkpoints.data ? [...checkpoints.data].reverse() : undefined;
  const shown = newestFirst && { items: newestFirst.slice(paging.offset, paging.offset + PAGE_SIZE), total: newestFirst.length };

  return (
    <section>
      <PageTitle title={title} />
      <p>{t('admin.checkpointsIntro')}</p>
      <p className="admin-actions">
        <button type="button" className="btn" disabled={sign.isPending} onClick={() => sign.mutate()}>
          {t('admin.signCheckpoint')}
        </button>
        <a href="/.well-known/audit-key">{t('admin.auditKey')}</a>
      </p>
      <AdminFeedback feedback={feedback} />
      <PagedTable
        query={{ ...checkpoints, data: shown }}
        columns={[
          { heading: t('admin.checkpointSeq'), cell: (row) => row.seq },
          { heading: t('admin.at'), cell: (row) => formatDateTime(row.at, i18n.language) },
          { heading: t('admin.checkpointHash'), cell: (row) => <code title={row.hash}>{row.hash.slice(0, 16)}…</code> },
          { heading: t('admin.checkpointTimestamp'), cell: (row) => (row.timestampedAt ? formatDateTime(row.timestampedAt, i18n.language) : t('admin.no')) },
        ]}
        rowKey={(row) => row.seq}
        emptyText={t('admin.noCheckpoints')}
        paging={paging}
      />
    </section>
  );
}
