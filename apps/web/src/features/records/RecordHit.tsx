import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths, usesImagePlaceholder, type CategoryDef, type FieldDef, type RecordDto } from '@app/shared';
import { ResponsiveImage } from '../../components/ResponsiveImage';
import { formatDate } from '../../lib/dates';
import { useTranslation } from '../../lib/i18n';
import { ConfirmedStatus } from './ConfirmedStatus';
import { FieldValue } from './FieldValue';
import { PrivateMark } from './PrivateMark';
import { coverOf } from './RecordCard';
import './hit.css';

/** The thumbnail's width (search.css draws it at this size): the browser picks the smallest copy that fills it. */
const THUMB_SIZES = '4.5rem';

const hasValue = (record: RecordDto, field: FieldDef | undefined): field is FieldDef =>
  field !== undefined && record[field.name] !== null && record[field.name] !== undefined && record[field.name] !== '';

/** When the record's events happened (with its field's name: "Killing date"), else when it was posted. */
function HitDate({ category, record }: { category: CategoryDef; record: RecordDto }) {
  const { t, i18n } = useTranslation();
  const happened = category.fields.find((f) => f.statistics === 'incidentDate');
  if (hasValue(record, happened)) {
    return (
      <span className="hit-date">
        {t(happened.cardLabel ?? happened.label)}: <FieldValue field={happened} record={record} />
      </span>
    );
  }
  return (
    <time className="hit-date" dateTime={record.createdAt}>
      {t('record.posted', { date: formatDate(record.createdAt, i18n.language) })}
    </time>
  );
}

/** Where: the place as written, else the region. */
function HitPlace({ category, record }: { category: CategoryDef; record: RecordDto }) {
  const place = [category.fields.find((f) => f.name === 'location'), category.fields.find((f) => f.kind === 'region')].find((f) => hasValue(record, f));
  if (!place) return null;
  return (
    <>
      <span aria-hidden="true"> · </span>
      <span className="hit-place">
        <FieldValue field={place} record={record} />
      </span>
    </>
  );
}

/**
 * One search hit, compact so a phone's first screen holds several: the title, the category, the date and the place,
 * the snippet with the words found, and a small thumbnail (the list's card, with its full-width image and facts,
 * put the first title below a phone's first screen).
 */
export function RecordHit({ category, record, snippet, priority = false }: { category: CategoryDef; record: RecordDto; snippet: ReactNode; priority?: boolean }) {
  const { t } = useTranslation();
  // A graphic image is not shown in a list of hits: its warning and button do not fit a thumbnail.
  const found = usesImagePlaceholder(record.imageUrl) ? undefined : coverOf(record);
  const cover = found?.graphic ? undefined : found;
  return (
    <article className="record-hit" data-testid="search-hit">
      <div className="hit-body">
        <h2 className="hit-title">
          <Link to={paths.detail(category.slug, record._id)}>{record.title}</Link>
        </h2>
        <p className="hit-meta">
          <span className="hit-category">{t(category.singular)}</span>
          <span aria-hidden="true"> · </span>
          <HitDate category={category} record={record} />
          <HitPlace category={category} record={record} /> <PrivateMark record={record} />
          <ConfirmedStatus category={category} record={record} />
        </p>
        {snippet}
      </div>
      {cover ? (
        <div className="hit-thumb">
          <ResponsiveImage image={cover} alt="" sizes={THUMB_SIZES} eager={priority} />
        </div>
      ) : null}
    </article>
  );
}
