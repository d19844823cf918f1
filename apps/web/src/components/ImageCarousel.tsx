import type { MediaDto } from '@app/shared';
import { Carousel } from './Carousel';
import { ResponsiveImage } from './ResponsiveImage';

const DETAIL_IMAGE_SIZES = '(max-width: 768px) 100vw, 720px';

/** One image of a record's detail page, its alternative text the record's title (with "n/total" among several). */
export function RecordImage({ image, index, total, title }: { image: MediaDto; index: number; total: number; title: string }) {
  return <ResponsiveImage image={image} alt={total > 1 ? `${title} (${index + 1}/${total})` : title} sizes={DETAIL_IMAGE_SIZES} eager={index === 0} />;
}

/** A record's images one at a time (an island: it works on a reading page without the app). */
export function ImageCarousel({ images, title, label }: { images: MediaDto[]; title: string; label: string }) {
  return <Carousel items={images} label={label} render={(image, index) => <RecordImage image={image} index={index} total={images.length} title={title} />} />;
}
