import { useTranslation } from '../../lib/i18n';
import { Link, useParams } from 'react-router';
import { Island } from '../../islands/Island';
import { ViewerKeys } from './ViewerKeys';
import { paths } from '@app/shared';
import { PageTitle } from '../../components/PageTitle';
import { ResponsiveImage } from '../../components/ResponsiveImage';
import { ShareControl } from '../../components/ShareControl';
import { ErrorNotice, Loading } from '../../components/Status';
import { ApiError } from '../../lib/api';
import { brand } from '../../lib/brand';
import { useGalleryImage, useGalleryNeighbours } from './api';
import './gallery.css';

/**
 * /images/{id}: one image full size, previous/next arrows (the left hidden at the first image, the right at the last),
 * left/right arrow keys, and the share control.
 */
export default function ImageViewerPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const image = useGalleryImage(id);
  const neighbours = useGalleryNeighbours(id);
  const previous = neighbours.data?.previous ?? null;
  const next = neighbours.data?.next ?? null;

  if (image.isPending) {
    return (
      <>
        <PageTitle title={t('gallery.viewer')} className="visually-hidden" />
        <Loading />
      </>
    );
  }
  if (image.error || !image.data) {
    return (
      <>
        <PageTitle title={t('gallery.viewer')} />
        {image.error instanceof ApiError && image.error.status === 404 ? <p>{t('common.notFound')}</p> : <ErrorNotice error={image.error} />}
        <Link to={paths.images}>{t('gallery.backToImages')}</Link>
      </>
    );
  }
  const item = image.data;
  return (
    <article className="image-viewer" aria-describedby="viewer-hint">
      <PageTitle title={item.title} />
      <p id="viewer-hint" className="visually-hidden">
        {t('gallery.keyboardHint')}
      </p>
      <div className="viewer-stage">
        {previous ? (
          <Link to={paths.image(previous._id)} className="viewer-arrow viewer-previous" aria-label={t('common.previous')} data-testid="viewer-previous">
            <span aria-hidden="true">‹</span>
          </Link>
        ) : null}
        <figure>
          <ResponsiveImage key={item._id} image={item} alt={item.title} sizes="100vw" eager />
          {item.caption ? <figcaption>{item.caption}</figcaption> : null}
        </figure>
        {next ? (
          <Link to={paths.image(next._id)} className="viewer-arrow viewer-next" aria-label={t('common.next')} data-testid="viewer-next">
            <span aria-hidden="true">›</span>
          </Link>
        ) : null}
      </div>
      {neighbours.data && neighbours.data.total > 1 ? (
        <p className="viewer-position" data-testid="viewer-position">{`${neighbours.data.position}/${neighbours.data.total}`}</p>
      ) : null}
      <p>
        <Link to={paths.detail(item.category, item.recordId)}>{t('gallery.fromRecord', { title: item.title })}</Link>
        {' · '}
        <Link to={paths.images}>{t('gallery.backToImages')}</Link>
      </p>
      <ShareControl url={`${brand.publicUrl}${paths.image(item._id)}`} />
      <Island name="viewerKeys" component={ViewerKeys} props={{ previous: previous && paths.image(previous._id), next: next && paths.image(next._id) }} />
    </article>
  );
}
