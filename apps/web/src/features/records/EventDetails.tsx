import { useTranslation } from '../../lib/i18n';
import type { RecordDto } from '@app/shared';
import { formatDateTime } from '../../lib/dates';

/** Event card and detail: start and end times and the address (country, city, street). */
export function EventDetails({ record }: { record: RecordDto }) {
  const { t, i18n } = useTranslation();
  const address = [record.country, record.city, record.streetName].filter((v): v is string => typeof v === 'string' && v !== '').join(', ');
  const start = formatDateTime(record.startAt as string | null, i18n.language);
  const end = formatDateTime(record.endAt as string | null, i18n.language);
  return (
    <dl className="facts event-details">
      {start ? (
        <div>
          <dt>{t('field.startAt')}</dt>
          <dd data-testid="event-start">{start}</dd>
        </div>
      ) : null}
      {end ? (
        <div>
          <dt>{t('field.endAt')}</dt>
          <dd data-testid="event-end">{end}</dd>
        </div>
      ) : null}
      {address ? (
        <div>
          <dt>{t('record.address')}</dt>
          <dd data-testid="event-address">{address}</dd>
        </div>
      ) : null}
    </dl>
  );
}
