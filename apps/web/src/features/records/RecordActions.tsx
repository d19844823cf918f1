import { useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link, useNavigate } from 'react-router';
import { CATEGORIES, can, paths, type RecordDto } from '@app/shared';
import { LockIcon, TrashIcon, UnlockIcon } from '../../components/icons';
import { useSession } from '../../lib/session';
import { ActionFeedback, useFailureText, type Feedback } from './ActionFeedback';
import { useApproveRecord, useDeleteRecord, useToggleAccess } from './mutations';
import './editor.css';

/**
 * Owner controls of a detail page: edit and delete for the owner,
 * admin or super; approve only while the record is not approved and the user is admin or super; the lock toggling
 * public/private for categories that have it, for admin or super. Every action reports its result.
 */
export function RecordActions({ record }: { record: RecordDto }) {
  const { t } = useTranslation();
  const user = useSession();
  const navigate = useNavigate();
  const failure = useFailureText();
  const [feedback, setFeedback] = useState<Feedback>(null);
  const approve = useApproveRecord();
  const toggleAccess = useToggleAccess();
  const remove = useDeleteRecord();
  const category = CATEGORIES[record.category];
  if (!user || !category) return null;

  const mayModify = can.modify(user, record);
  const mayApprove = category.approvable && !record.approved && can.approve(user);
  const mayToggle = category.hasAccessToggle && can.toggleAccess(user);
  if (!mayModify && !mayApprove && !mayToggle) return null;

  const onApprove = () => {
    setFeedback(null);
    approve.mutate(record, {
      onSuccess: () => setFeedback({ kind: 'ok', text: t('editor.approved') }),
      onError: (err) => setFeedback({ kind: 'error', text: failure(t('common.approve'), err) }),
    });
  };
  const onToggle = () => {
    setFeedback(null);
    toggleAccess.mutate(record, {
      onSuccess: (updated) => setFeedback({ kind: 'ok', text: t(updated.public ? 'editor.madePublic' : 'editor.madePrivate') }),
      onError: (err) => setFeedback({ kind: 'error', text: failure(t(record.public ? 'editor.makePrivate' : 'editor.makePublic'), err) }),
    });
  };
  const onDelete = () => {
    if (!window.confirm(t('editor.confirmDelete'))) return;
    setFeedback(null);
    remove.mutate(record, {
      onSuccess: () => navigate(paths.list(record.category), { state: { notice: t('editor.deleted') } }),
      onError: (err) => setFeedback({ kind: 'error', text: failure(t('common.delete'), err) }),
    });
  };

  return (
    <div className="record-actions">
      <div className="record-actions-row">
        {mayApprove ? (
          <button type="button" className="btn" onClick={onApprove} disabled={approve.isPending}>
            {t('common.approve')}
          </button>
        ) : null}
        {mayToggle ? (
          <button
            type="button"
            className="icon-button"
            onClick={onToggle}
            disabled={toggleAccess.isPending}
            aria-label={t(record.public ? 'editor.makePrivate' : 'editor.makePublic')}
            title={t(record.public ? 'editor.makePrivate' : 'editor.makePublic')}
            data-public={record.public ? 'true' : 'false'}
          >
            {record.public ? <UnlockIcon /> : <LockIcon />}
          </button>
        ) : null}
        {mayModify ? (
          <>
            <Link className="icon-button" to={paths.edit(record.category, record._id)} aria-label={t('common.edit')} title={t('common.edit')}>
              <span aria-hidden="true">{'\u270E'}</span>
            </Link>
            <button
              type="button"
              className="icon-button"
              onClick={onDelete}
              disabled={remove.isPending}
              aria-label={t('common.delete')}
              title={t('common.delete')}
            >
              <TrashIcon />
            </button>
          </>
        ) : null}
      </div>
      <ActionFeedback feedback={feedback} />
    </div>
  );
}
