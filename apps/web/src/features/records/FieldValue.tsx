import { useTranslation } from '../../lib/i18n';
import { regionName, type FieldDef, type RecordDto } from '@app/shared';
import { formatDate, formatDateTime } from '../../lib/dates';

/** Evidence and other link lists are stored joined by comma and one space. */
export const splitLinks = (value: unknown): string[] =>
  typeof value === 'string' ? value.split(', ').map((s) => s.trim()).filter(Boolean) : [];

const isHttp = (url: string) => /^https?:\/\//i.test(url);

function ExternalLink({ url }: { url: string }) {
  return isHttp(url) ? (
    <a href={url} target="_blank" rel="noopener noreferrer">
      {url}
    </a>
  ) : (
    <>{url}</>
  );
}

/** One record field shown by its kind: dates formatted (Ethiopian calendar in Amharic), links clickable. */
export function FieldValue({ field, record }: { field: FieldDef; record: RecordDto }) {
  const { i18n } = useTranslation();
  const value = record[field.name];
  if (value === null || value === undefined || value === '') return null;
  switch (field.kind) {
    case 'date':
    case 'datetime': {
      const date = field.kind === 'date' ? formatDate(String(value), i18n.language) : formatDateTime(String(value), i18n.language);
      const note = field.annotatedBy ? record[field.annotatedBy] : null;
      return <>{typeof note === 'string' && note ? `${date} (${note})` : date}</>;
    }
    case 'region':
      return <>{regionName(String(value), i18n.language)}</>;
    case 'quantity':
      return <>{Number(value).toLocaleString(i18n.language === 'am' ? 'am-ET' : 'en-US')}</>;
    case 'url':
      return <ExternalLink url={String(value)} />;
    case 'urlList':
      return (
        <ul className="link-list">
          {splitLinks(value).map((url) => (
            <li key={url}>
              <ExternalLink url={url} />
            </li>
          ))}
        </ul>
      );
    default:
      return <>{String(value)}</>;
  }
}
