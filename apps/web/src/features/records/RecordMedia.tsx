import { useTranslation } from '../../lib/translate';
import type { CategoryDef, MediaDto, RecordDto } from '@app/shared';
import { Carousel } from '../../components/Carousel';
import { ImageCarousel, RecordImage } from '../../components/ImageCarousel';
import { Island } from '../../islands/Island';
import { useSession } from '../../lib/session';
import { ImageDeleteButton } from './ImageDeleteButton';
import { VideoPlayer } from './VideoPlayer';

/**
 * The media block of a detail page, by the category's media mode: one image, several images in a carousel with
 * "n/total" and per-image delete for editors (massacres, events), or the video player.
 */
export function RecordMedia({ category, record }: { category: CategoryDef; record: RecordDto }) {
  const { t } = useTranslation();
  const signedIn = useSession() !== null;
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
  const show = (image: MediaDto, index: number) => <RecordImage image={image} index={index} total={images.length} title={record.title} />;
  // A reader's carousel is an island (it works without the app); an editor's has each image's delete button.
  if (category.media === 'images' && !signedIn) {
    return <Island name="carousel" component={ImageCarousel} props={{ images, title: record.title, label: t('record.images') }} />;
  }
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
