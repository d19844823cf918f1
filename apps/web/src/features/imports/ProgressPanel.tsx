import { useState } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { CategoryDef } from '@app/shared';
import { ErrorNotice, Loading } from '../../components/Status';
import { useTranslation } from '../../lib/i18n';
import { cancelImport, trashImport, useProgress } from './api';

/** The commit job as it runs: a progress bar, the counts, cancel; when done, the records and a way to take them back. */
export function ProgressPanel({ importId, category }: { importId: string; category: CategoryDef }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const progress = useProgress(importId);
  const [message, setMessage] = useState<string | null>(null);
  if (progress.isPending) return <Loading />;
  if (progress.error || !progress.data) return <ErrorNotice error={progress.error} onRetry={() => void progress.refetch()} />;
  const p = progress.data;
  const running = p.status === 'queued' || p.status === 'running';
  const act = async (what: 'cancel' | 'trash') => {
    try {
      if (what === 'cancel') await cancelImport(importId);
      else setMessage(t('imports.trashed', { count: (await trashImport(importId)).trashed }));
      await queryClient.invalidateQueries();
    } catch (err) {
      setMessage((err as Error).message);
    }
  };
  return (
    <section className="import-progress" aria-labelledby="import-progress-title">
      <h2 id="import-progress-title">{t('imports.progressTitle')}</h2>
      <label htmlFor="import-progress-bar">{t(`imports.status.${p.status}`)}</label>
      <progress id="import-progress-bar" max={Math.max(p.total, 1)} value={p.done} data-testid="import-progress-bar" />
      <p data-testid="import-counts" aria-live="polite">
        {t('imports.counts', { done: p.done, total: p.total, created: p.created, skipped: p.skipped, failed: p.failed })}
      </p>
      {p.lastError && running && <p>{t('imports.retrying', { message: p.lastError })}</p>}
      {message && <p role="status">{message}</p>}
      <p className="import-actions">
        {running && (
          <button type="button" className="btn btn-secondary" onClick={() => void act('cancel')}>
            {t('imports.cancel')}
          </button>
        )}
        {p.status === 'done' && (
          <Link className="btn" to={category.route} data-testid="import-records-link">
            {t('imports.seeRecords')}
          </Link>
        )}
        {!running && p.status !== 'trashed' && p.created > 0 && (
          <button type="button" className="btn btn-secondary" onClick={() => window.confirm(t('imports.trashConfirm')) && void act('trash')}>
            {t('imports.trash')}
          </button>
        )}
      </p>
    </section>
  );
}
