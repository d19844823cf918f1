import { useTranslation } from '../../lib/i18n';
import type { CategoryDef, RecordDto } from '@app/shared';

/** "Confirmed" with a check, or "Not Confirmed" in red, for categories that are approved. */
export function ConfirmedStatus({ category, record }: { category: CategoryDef; record: RecordDto }) {
  const { t } = useTranslation();
  if (!category.approvable) return null;
  return record.approved ? (
    <span className="confirmed" data-testid="confirmed-status">
      <span aria-hidden="true">✔ </span>
      {t('common.confirmed')}
    </span>
  ) : (
    <span className="not-confirmed" data-testid="confirmed-status">
      {t('common.notConfirmed')}
    </span>
  );
}
