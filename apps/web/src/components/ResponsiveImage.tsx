import type { ReactNode } from 'react';
import { useTranslation } from '../lib/translate';
import type { ImageVariant } from '@app/shared';
import { Island } from '../islands/Island';
import { ShowGraphic } from './ShowGraphic';
import './media.css';

/** What an image needs to be shown responsively: a record's MediaDto or a gallery item both fit. */
interface ImageSource {
  imageUrl: string;
  variants: ImageVariant[];
  width: number | null;
  height: number | null;
  graphic?: boolean;
}

const TYPES: Record<ImageVariant['format'], string> = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' };

function srcSet(variants: ImageVariant[]): string {
  return [...variants]
    .sort((a, b) => a.width - b.width)
    .map((v) => `${v.url} ${v.width}w`)
    .join(', ');
}

/**
 * The derived copies (media variants) with srcset/sizes, lazy loading and intrinsic width/height, so the browser
 * picks the smallest fitting file and reserves the space (no layout shift).
 */
export function ResponsiveImage({
  image,
  alt,
  sizes,
  className,
  eager = false,
}: {
  image: ImageSource;
  alt: string;
  sizes: string;
  className?: string;
  eager?: boolean;
}) {
  const byFormat = (format: ImageVariant['format']) => image.variants.filter((v) => v.format === format);
  const jpegs = byFormat('jpeg');
  const img = (
    <img
      src={image.imageUrl || jpegs.at(-1)?.url}
      srcSet={jpegs.length ? srcSet(jpegs) : undefined}
      sizes={jpegs.length ? sizes : undefined}
      width={image.width ?? undefined}
      height={image.height ?? undefined}
      alt={alt}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : undefined}
      decoding="async"
      className={className}
    />
  );
  const modern = (['avif', 'webp'] as const).filter((f) => byFormat(f).length > 0);
  const picture = modern.length ? (
    <picture>
      {modern.map((f) => (
        <source key={f} type={TYPES[f]} srcSet={srcSet(byFormat(f))} sizes={sizes} />
      ))}
      {img}
    </picture>
  ) : (
    img
  );
  return image.graphic ? <GraphicGuard>{picture}</GraphicGuard> : picture;
}

/** Graphic media are blurred until the reader chooses to see them (ShowGraphic). */
export function GraphicGuard({ children, video = false }: { children: ReactNode; video?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="graphic-guard">
      <div className="graphic-guard-media" aria-hidden="true" inert>
        {children}
      </div>
      <div className="graphic-guard-notice">
        <p>{video ? t('record.graphicVideoWarning') : t('record.graphicWarning')}</p>
        <Island name="showGraphic" component={ShowGraphic} props={{}} />
      </div>
    </div>
  );
}

/** Shown when a record has no usable image (imageUrl of length 1 or less). */
export function ImagePlaceholder({ className }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <div className={`image-placeholder ${className ?? ''}`} role="img" aria-label={t('record.noImage')} data-testid="image-placeholder">
      <svg viewBox="0 0 24 24" width="48" height="48" aria-hidden="true" focusable="false">
        <path fill="currentColor" d="M21 19V5a2 2 0 0 0-2-2H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2zM8.5 13.5l2.5 3 3.5-4.5 4.5 6H5l3.5-4.5z" />
      </svg>
    </div>
  );
}
