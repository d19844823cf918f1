import { useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { can, type RecordDto } from '@app/shared';
import { TrashIcon } from '../../components/icons';
import { useSession } from '../../lib/session';
import { ActionFeedback, useFailureText, type Feedback } from './ActionFeedback';
import { useDeleteImage } from './mutations';
import './editor.css';

/** The per-image delete icon of galleries on detail pages (owner, admin or super), with confirmation and result. */
export function ImageDeleteButton({ record, imageId }: { record: RecordDto; imageId: string }) {
  const { t } = useTranslation();
  const user = useSession();
  const failure = useFailureText();
  const [feedback, setFeedback] = useState<Feedback>(null);
  const remove = useDeleteImage();
  if (!user || !can.modify(user, record)) return null;

  const onDelete = () => {
    if (!window.confirm(t('editor.confirmDeleteImage'))) return;
    setFeedback(null);
    remove.mutate(
      { record, imageId },
      {
        onSuccess: () => setFeedback({ kind: 'ok', text: t('editor.imageDeleted') }),
        onError: (err) => setFeedback({ kind: 'error', text: failure(t('editor.deleteImage'), err) }),
      },
    );
  };

  return (
    <span className="image-delete">
      <button
        type="button"
        className="icon-button"
        onClick={onDelete}
        disabled={remove.isPending}
        aria-label={t('editor.deleteImage')}
        title={t('editor.deleteImage')}
      >
        <TrashIcon />
      </button>
      <ActionFeedback feedback={feedback} />
    </span>
  );
}
