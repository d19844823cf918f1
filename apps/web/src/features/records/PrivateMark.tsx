import type { RecordDto } from '@app/shared';
import { LockIcon } from '../../components/icons';
import { useTranslation } from '../../lib/i18n';
import { useSession } from '../../lib/session';

/**
 * A lock and the word "Private" on a record that is not public, for the signed-in readers who can see such records
 * (cards, the massacres table, search results, the detail page), so nobody shares one by mistake. Anonymous readers
 * never receive private records.
 */
export function PrivateMark({ record }: { record: RecordDto }) {
  const { t } = useTranslation();
  const user = useSession();
  if (!user || record.public !== false) return null;
  return (
    <span className="private-mark" data-testid="private-mark" title={t('record.privateHint')}>
      <LockIcon size={14} />
      {t('record.private')}
    </span>
  );
}
