import { useTranslation } from '../../lib/i18n';
import type { CategoryDef, MediaDto, RecordDto } from '@app/shared';
import { Carousel } from '../../components/Carousel';
import { ResponsiveImage } from '../../components/ResponsiveImage';
import { ImageDeleteButton } from './ImageDeleteButton';
import { VideoPlayer } from './VideoPlayer';

const DETAIL_IMAGE_SIZES = '(max-width: 768px) 100vw, 720px';

/**
 * The media block of a detail page, by the category's media mode: one image, several images in a carousel with
 * "n/total" and per-image delete for editors (massacres, events), or the video player.
 */
export function RecordMedia({ category, record }: { category: CategoryDef; record: RecordDto }) {
  const { t } = useTranslation();
  const images = record.images.filter((m) => m.kind === 'image');
  if (category.media === 'video') {
    const video = record.images.find((m) => m.kind === 'video');
    if (video) return <VideoPlayer video={video} title={record.title} />;
    const url = typeof record.videoUrl === 'string' ? record.videoUrl : '';
    return /^https?:\/\//i.test(url) ? (
      <p>
        <a href={url} target="_blank" rel="noopener noreferrer">
          {t('record.videoLink')}
        </a>
      </p>
    ) : null;
  }
  if (images.length === 0) return null;
  const show = (image: MediaDto, index: number) => (
    <ResponsiveImage image={image} alt={images.length > 1 ? `${record.title} (${index + 1}/${images.length})` : record.title} sizes={DETAIL_IMAGE_SIZES} eager={index === 0} />
  );
  if (category.media === 'images') {
    return (
      <Carousel
        items={images}
        label={t('record.images')}
        render={show}
        extra={(image) => <ImageDeleteButton record={record} imageId={image.imageId} />}
      />
    );
  }
  return <figure className="detail-image">{show(images[0]!, 0)}</figure>;
}

/** The SHA-256 of each original as received, in small print, so anyone can check a copy. */
export function EvidenceFixity({ record }: { record: RecordDto }) {
  const { t } = useTranslation();
  const files = record.images.filter((m) => m.sha256);
  if (files.length === 0) return null;
  return (
    <section className="fixity" aria-labelledby="fixity-title">
      <h2 id="fixity-title">{t('record.fixityTitle')}</h2>
      <p>{t('record.fixityNote')}</p>
      <ul>
        {files.map((m) => (
          <li key={m.imageId}>
            <code data-testid="sha256">{m.sha256}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}
