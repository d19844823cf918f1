import { useTranslation } from '../../lib/i18n';
import type { CategoryDef, RecordDto } from '@app/shared';
import { useCreateRecord } from './mutations';
import { RecordForm } from './RecordForm';

/** The add form of one category; a video upload asks for confirmation first and shows its progress. */
export function AddRecordForm({ category, onCreated, draft }: { category: CategoryDef; onCreated: (record: RecordDto) => void; /** Starting values (a testimony's). */ draft?: Partial<RecordDto> }) {
  const { t } = useTranslation();
  const create = useCreateRecord(category);
  return (
    <div className="dashboard-form">
      <h2>{t('editor.addTitle', { category: category.pickerLabel })}</h2>
      <RecordForm
        category={category}
        draft={draft}
        submitLabel={t('common.submit')}
        confirmText={category.media === 'video' ? t('editor.confirmVideo') : undefined}
        save={(form, onProgress) => create.mutateAsync({ form, onProgress })}
        onSaved={(saved) => onCreated(saved as RecordDto)}
      />
    </div>
  );
}
