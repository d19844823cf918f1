import { useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link, useNavigate } from 'react-router';
import { CATEGORIES, can, paths, type RecordDto } from '@app/shared';
import { LockIcon, TrashIcon, UnlockIcon } from '../../components/icons';
import { useSession } from '../../lib/session';
import { ActionFeedback, useFailureText, type Feedback } from './ActionFeedback';
import { useApproveRecord, useDeleteRecord, useToggleAccess } from './mutations';
import './editor.css';

/** The three actions of a detail page, each reporting its result in one feedback line. */
function useRecordActions(record: RecordDto) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const failure = useFailureText();
  const [feedback, setFeedback] = useState<Feedback>(null);
  const approve = useApproveRecord();
  const toggleAccess = useToggleAccess();
  const remove = useDeleteRecord();

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
  return { feedback, onApprove, onToggle, onDelete, approving: approve.isPending, toggling: toggleAccess.isPending, deleting: remove.isPending };
}

/** Edit and delete, for those who may modify the record. */
function ModifyButtons({ record, onDelete, deleting }: { record: RecordDto; onDelete: () => void; deleting: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <Link className="icon-button" to={paths.edit(record.category, record._id)} aria-label={t('common.edit')} title={t('common.edit')}>
        <span aria-hidden="true">{'\u270E'}</span>
      </Link>
      <button type="button" className="icon-button" onClick={onDelete} disabled={deleting} aria-label={t('common.delete')} title={t('common.delete')}>
        <TrashIcon />
      </button>
    </>
  );
}

/**
 * Owner controls of a detail page: edit and delete for the owner,
 * admin or super; approve only while the record is not approved and the user is admin or super; the lock toggling
 * public/private for categories that have it, for admin or super. Every action reports its result.
 */
export function RecordActions({ record }: { record: RecordDto }) {
  const { t } = useTranslation();
  const user = useSession();
  const actions = useRecordActions(record);
  const category = CATEGORIES[record.category];
  if (!user || !category) return null;

  const mayModify = can.modify(user, record);
  const mayApprove = category.approvable && !record.approved && can.approve(user);
  const mayToggle = category.hasAccessToggle && can.toggleAccess(user);
  if (!mayModify && !mayApprove && !mayToggle) return null;
  const toggleLabel = t(record.public ? 'editor.makePrivate' : 'editor.makePublic');

  return (
    <div className="record-actions">
      <div className="record-actions-row">
        {mayApprove ? (
          <button type="button" className="btn" onClick={actions.onApprove} disabled={actions.approving}>
            {t('common.approve')}
          </button>
        ) : null}
        {mayToggle ? (
          <button
            type="button"
            className="icon-button"
            onClick={actions.onToggle}
            disabled={actions.toggling}
            aria-label={toggleLabel}
            title={toggleLabel}
            data-public={record.public ? 'true' : 'false'}
          >
            {record.public ? <UnlockIcon /> : <LockIcon />}
          </button>
        ) : null}
        {mayModify ? <ModifyButtons record={record} onDelete={actions.onDelete} deleting={actions.deleting} /> : null}
      </div>
      <ActionFeedback feedback={actions.feedback} />
    </div>
  );
}
