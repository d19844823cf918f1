import { useTranslation } from '../../lib/i18n';
import type { FieldDef, RecordDto } from '@app/shared';
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

/** Dates that read as a day ("ll"); the others (start, end) also show the time. */
const DAY_FIELDS = new Set(['happenedOn']);

/** One record field shown by its kind: dates formatted (Ethiopian calendar in Amharic), links clickable. */
export function FieldValue({ field, record }: { field: FieldDef; record: RecordDto }) {
  const { i18n } = useTranslation();
  const value = record[field.name];
  if (value === null || value === undefined || value === '') return null;
  switch (field.kind) {
    case 'datetime': {
      const date = DAY_FIELDS.has(field.name) ? formatDate(String(value), i18n.language) : formatDateTime(String(value), i18n.language);
      // The remark is shown in brackets after the happened-on date.
      const remark = field.name === 'happenedOn' && typeof record.remark === 'string' && record.remark ? ` (${record.remark})` : '';
      return <>{`${date}${remark}`}</>;
    }
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
