import { useTranslation } from '../../lib/i18n';
import { Link } from 'react-router';
import { paths } from '@app/shared';
import { PageTitle } from '../../components/PageTitle';
import { Pagination, usePageParam } from '../../components/Pagination';
import { ResponsiveImage } from '../../components/ResponsiveImage';
import { EmptyState, ErrorNotice, Loading } from '../../components/Status';
import { GALLERY_PAGE_SIZE, useGalleryPage } from './api';
import './gallery.css';

/** Thumbnails are 30% wide; two per row on phones. */
const THUMB_SIZES = '(max-width: 768px) 50vw, 30vw';

/** /images: every image of the gallery categories, newest record first, with the count in the title. */
export default function GalleryPage() {
  const { t } = useTranslation();
  const page = usePageParam();
  const { data, error, isPending, refetch } = useGalleryPage(page);
  return (
    <section className="gallery">
      <PageTitle title={t('gallery.title', { total: data ? data.total : '…' })} />
      {isPending ? (
        <Loading />
      ) : error ? (
        <ErrorNotice error={error} onRetry={() => void refetch()} />
      ) : data.items.length === 0 ? (
        <EmptyState text={t('empty.image')} />
      ) : (
        <>
          <ul className="gallery-grid">
            {data.items.map((item) => (
              <li key={item._id}>
                <Link to={paths.image(item._id)} className="gallery-thumb" data-testid="gallery-thumb">
                  <ResponsiveImage image={item} alt={item.title} sizes={THUMB_SIZES} />
                </Link>
              </li>
            ))}
          </ul>
          <Pagination page={page} total={data.total} pageSize={GALLERY_PAGE_SIZE} onPage="address" />
        </>
      )}
    </section>
  );
}
