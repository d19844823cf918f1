import { Fragment } from 'react';
import { useTranslation } from '../../lib/i18n';
import { regionName, type FieldDef, type RecordDto } from '@app/shared';
import { formatDate, formatDateTime, formatReportDate } from '../../lib/dates';

/** Evidence and other link lists are stored joined by comma and one space. */
export const splitLinks = (value: unknown): string[] =>
  typeof value === 'string' ? value.split(', ').map((s) => s.trim()).filter(Boolean) : [];

const isHttp = (url: string) => /^https?:\/\//i.test(url);

/**
 * An address shown so that it wraps between its parts, as style guides break them: after a slash, before a dot, a
 * hyphen or the query's signs, never inside a word ("…/sample-te|st" in a narrow column).
 */
export function LinkText({ url }: { url: string }) {
  const parts = url.split(/(?<=\/)(?!\/)|(?=[.\-_?#&=+~])/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}

function ExternalLink({ url }: { url: string }) {
  return isHttp(url) ? (
    <a href={url} target="_blank" rel="noopener noreferrer">
      <LinkText url={url} />
    </a>
  ) : (
    <>{url}</>
  );
}

/** The i18n key of the label of a choice field's option (FieldDef.options): `choice.<field name>.<value>`. */
export const choiceLabelKey = (field: FieldDef, value: string) => `choice.${field.name}.${value}`;

/** One record field shown by its kind: dates formatted (Ethiopian calendar in Amharic), links clickable. */
export function FieldValue({ field, record }: { field: FieldDef; record: RecordDto }) {
  const { t, i18n } = useTranslation();
  const value = record[field.name];
  if (value === null || value === undefined || value === '') return null;
  switch (field.kind) {
    case 'date':
    case 'datetime': {
      const date = field.shownWithTime
        ? formatReportDate(String(value), i18n.language)
        : field.kind === 'date'
          ? formatDate(String(value), i18n.language)
          : formatDateTime(String(value), i18n.language);
      const note = field.annotatedBy ? record[field.annotatedBy] : null;
      return <>{typeof note === 'string' && note ? `${date} (${note})` : date}</>;
    }
    case 'region':
      return <>{regionName(String(value), i18n.language)}</>;
    case 'choice':
      // The option's label, never the stored word ("region"); a value the registry no longer lists shows as stored.
      return <>{t(choiceLabelKey(field, String(value)), { defaultValue: String(value) })}</>;
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
