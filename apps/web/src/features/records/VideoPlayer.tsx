import { useTranslation } from '../../lib/i18n';
import type { MediaDto } from '@app/shared';
import { GraphicGuard } from '../../components/ResponsiveImage';

/**
 * A record's video: the processed file in a native player (keyboard and captions support come with it). While the
 * background job runs, a notice says so.
 */
export function VideoPlayer({ video, title }: { video: MediaDto; title: string }) {
  const { t } = useTranslation();
  if (video.status === 'failed') return <p className="video-status">{t('record.videoFailed')}</p>;
  if (video.status !== 'ready' || !video.imageUrl) {
    return (
      <p className="video-status" role="status" data-testid="video-processing">
        {t('record.videoProcessing')}
      </p>
    );
  }
  const player = (
    <video
      className="video-player"
      controls
      preload="metadata"
      poster={video.posterUrl ?? undefined}
      width={video.width ?? undefined}
      height={video.height ?? undefined}
      aria-label={title}
      data-testid="video-player"
      src={video.imageUrl}
    />
  );
  return video.graphic ? <GraphicGuard video>{player}</GraphicGuard> : player;
}
