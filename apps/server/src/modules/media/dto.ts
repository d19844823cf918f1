import type { MediaDto } from '@app/shared';
import type { MediaRow } from '../../db/schema';
import type { RestrictedInfo } from './images';
import type { LinkReader, SignedLinks } from './signed-links';

/** The columns of a file that its public description (MediaDto) is made of. */
export type MediaView = Pick<
  MediaRow,
  'id' | 'kind' | 'width' | 'height' | 'variants' | 'sha256' | 'size' | 'mime' | 'caption' | 'graphic' | 'status' | 'publicKey' | 'removedAt' | 'recordLive' | 'recordPublic'
>;

export interface MediaDtoOptions {
  /** Add the restricted metadata and the processing status reason (for the record's editors: mayReadRestricted). */
  restricted?: boolean;
  /** The signed-in reader, whose links to a copy that is not public are signed for them; none: plain links. */
  reader?: LinkReader | null;
}

export function publicUrl(key: string): string {
  return `/media/${key}`;
}

/**
 * The public view of a file. `imageUrl` is the widest JPEG copy of an image, or the web MP4 of a video ('' until
 * it is processed); for a video, `variants` and `posterUrl` are its poster's copies. A copy that is not public is
 * linked with a signature for the reader given (the plain link, to anyone else, answers 404).
 */
export function mediaDto(
  row: MediaView & Partial<Pick<MediaRow, 'restricted' | 'statusReason'>>,
  links: SignedLinks | undefined,
  { restricted = false, reader = null }: MediaDtoOptions = {},
): MediaDto {
  const hidden = row.removedAt !== null || !row.recordLive || !row.recordPublic;
  const url = (key: string) => {
    const plain = publicUrl(key);
    return hidden && reader && links ? `${plain}?v=${links.sign(key, reader)}` : plain;
  };
  const variants = row.variants.map((v) => ({ width: v.width, format: v.format as 'webp' | 'avif' | 'jpeg', url: url(v.key) }));
  const jpegs = row.variants.filter((v) => v.format === 'jpeg').sort((a, b) => b.width - a.width);
  const dto: MediaDto = {
    imageId: row.id,
    imageUrl: row.publicKey ? url(row.publicKey) : '',
    kind: row.kind as MediaDto['kind'],
    width: row.width,
    height: row.height,
    variants,
    sha256: row.sha256,
    size: row.size,
    mime: row.mime,
    caption: row.caption,
    graphic: row.graphic,
    status: row.status as MediaDto['status'],
    posterUrl: row.kind === 'video' && jpegs[0] ? url(jpegs[0].key) : null,
  };
  if (restricted) {
    dto.restricted = (row.restricted as RestrictedInfo | null) ?? null;
    dto.statusReason = row.statusReason ?? null;
  }
  return dto;
}
