import { useTranslation } from '../../lib/i18n';
import { Link } from 'react-router';
import { descriptionPreview, markdownToPlainText, paths, usesImagePlaceholder, type CategoryDef, type MediaDto, type RecordDto } from '@app/shared';
import { ImagePlaceholder, ResponsiveImage } from '../../components/ResponsiveImage';
import { formatDate } from '../../lib/dates';
import { ConfirmedStatus } from './ConfirmedStatus';
import { viewOf } from './categoryViews';
import { FieldValue } from './FieldValue';
import { PrivateMark } from './PrivateMark';

/** Card images take 30% of the card; on phones the card stacks and the image is full width. */
const CARD_IMAGE_SIZES = '(max-width: 768px) 100vw, 30vw';

/** Title, subtitle, posted date and confirmation: the header every card shares. */
function CardHeader({ category, record }: { category: CategoryDef; record: RecordDto }) {
  const { t, i18n } = useTranslation();
  return (
    <header className="card-header">
      <h2 className="card-title">
        <Link to={paths.detail(category.slug, record._id)}>{record.title}</Link>
      </h2>
      {record.subtitle ? <p className="card-subtitle">{record.subtitle}</p> : null}
      <p className="card-meta">
        <time dateTime={record.createdAt}>{t('record.posted', { date: formatDate(record.createdAt, i18n.language) })}</time>{' '}
        <PrivateMark record={record} />
        <ConfirmedStatus category={category} record={record} />
      </p>
    </header>
  );
}

/** The category's card facts (registry `cardFields`), each with its label. */
function CardFacts({ category, record }: { category: CategoryDef; record: RecordDto }) {
  const { t } = useTranslation();
  const { ownFields } = viewOf(category);
  const fields = category.cardFields
    .filter((name) => !ownFields.has(name))
    .map((name) => category.fields.find((f) => f.name === name))
    .filter((f): f is NonNullable<typeof f> => Boolean(f))
    .filter((f) => record[f.name] !== null && record[f.name] !== undefined && record[f.name] !== '');
  if (fields.length === 0) return null;
  return (
    <dl className="facts">
      {fields.map((field) => (
        <div key={field.name}>
          <dt>{t(field.cardLabel ?? field.label)}</dt>
          <dd>
            <FieldValue field={field} record={record} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The card's picture: the record's first image, or a video's poster (its copies are the video's variants). */
export function coverOf(record: RecordDto): MediaDto | undefined {
  const still = record.images.find((m) => m.kind === 'image' || m.kind === 'poster');
  if (still) return still;
  const video = record.images.find((m) => m.kind === 'video' && m.posterUrl);
  return video?.posterUrl ? { ...video, imageUrl: video.posterUrl } : undefined;
}

/**
 * One record in a list: image or placeholder, header, facts, description preview and "Read More". `priority`: the
 * card is at the top of the page, so its image is fetched at once rather than lazily (it is often the largest paint).
 */
export function RecordCard({ category, record, priority = false }: { category: CategoryDef; record: RecordDto; priority?: boolean }) {
  const { t } = useTranslation();
  const cover = coverOf(record);
  const preview = descriptionPreview(markdownToPlainText(record.description), category.previewLength);
  const Details = viewOf(category).details;
  return (
    <article className="record-card" data-testid="record-card">
      <div className="card-image">
        {usesImagePlaceholder(record.imageUrl) || !cover ? (
          <ImagePlaceholder />
        ) : (
          <ResponsiveImage image={cover} alt={record.title} sizes={CARD_IMAGE_SIZES} eager={priority} />
        )}
      </div>
      <div className="card-body">
        <CardHeader category={category} record={record} />
        <CardFacts category={category} record={record} />
        {Details ? <Details record={record} /> : null}
        <p className="card-preview" data-testid="card-preview">
          {preview}
        </p>
        {/* The visible words are those of the spec; the name read out (and seen by link-text checks) says which record. */}
        <Link to={paths.detail(category.slug, record._id)} className="read-more">
          <span aria-hidden="true">{t('common.readMore')}</span>
          <span className="visually-hidden">{t('record.readMoreAbout', { title: record.title })}</span>
        </Link>
      </div>
    </article>
  );
}
