import { CATEGORIES, dataFields, type CategorySlug, type GalleryItemDto, type MediaDto, type RecordDto } from '@app/shared';
import type { MediaRow, RecordRow } from '../../db/schema';
import type { MediaService, MediaView } from '../media/service';

function jsonValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  return value ?? null;
}

/**
 * A record as the API shows it: common fields, the category's own data fields, its files, and the review flags.
 * Trash fields (deletedAt, deletedBy) only for the trash list.
 */
export function toRecordDto(
  row: RecordRow,
  files: MediaView[],
  mediaService: MediaService,
  { withTrash = false } = {},
): RecordDto {
  const category = CATEGORIES[row.category as CategorySlug];
  const images: MediaDto[] = files.map((file) => mediaService.toDto(file));
  // A video record's card shows the poster the video job made (MediaDto.posterUrl); until then, none.
  const cover = images.find((image) => image.kind === 'image' || image.kind === 'poster');
  const poster = images.find((image) => image.kind === 'video' && image.posterUrl)?.posterUrl;
  const dto: RecordDto = {
    _id: row.id,
    category: row.category as CategorySlug,
    title: row.title,
    subtitle: row.subtitle,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    imageUrl: cover?.imageUrl ?? poster ?? '',
    images,
    approved: row.approved,
    approvedAt: row.approvedAt?.toISOString() ?? null,
    public: row.public,
    graphic: row.graphic,
    userId: row.userId,
  };
  if (category) {
    for (const field of dataFields(category)) dto[field.name] = jsonValue((row as Record<string, unknown>)[field.name]);
  }
  if (withTrash) {
    dto.deletedAt = row.deletedAt?.toISOString() ?? null;
    dto.deletedBy = row.deletedBy;
  }
  return dto;
}

export async function toRecordDtos(
  rows: RecordRow[],
  mediaService: MediaService,
  options: { withTrash?: boolean } = {},
): Promise<RecordDto[]> {
  const files = await mediaService.forRecords(rows.map((r) => r.id));
  return rows.map((row) => toRecordDto(row, files.get(row.id) ?? [], mediaService, options));
}

export function toGalleryItem(
  row: { media: MediaRow; record: { id: string; category: string; title: string } },
  mediaService: MediaService,
): GalleryItemDto {
  const file = mediaService.toDto(row.media);
  return {
    _id: file.imageId,
    imageId: file.imageId,
    imageUrl: file.imageUrl,
    variants: file.variants,
    width: file.width,
    height: file.height,
    caption: file.caption,
    graphic: file.graphic,
    recordId: row.record.id,
    category: row.record.category as CategorySlug,
    title: row.record.title,
  };
}
