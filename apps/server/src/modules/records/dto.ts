import { CATEGORIES, dataFields, type Actor, type CategorySlug, type GalleryItemDto, type MediaDto, type RecordDto } from '@app/shared';
import type { MediaRow, RecordRow } from '../../db/schema';
import type { MediaService, MediaView } from '../media/service';
import type { LinkReader } from '../media/signed-links';
import { linkFields, type IncidentJoin } from './links';

function jsonValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  return value ?? null;
}

export interface RecordDtoOptions {
  /** The trash fields (deletedAt, deletedBy), for the trash list. */
  withTrash?: boolean;
  /**
   * The signed-in reader it is for, who is shown who created the record (`userId`: the web app shows its creator the
   * edit controls) and links to its files that are not public, signed for them. None: an anonymous visitor, shown
   * no account (an id would link every record one contributor made), or a document kept apart (exports).
   */
  reader?: Actor | null;
  /** Link files plainly even for a reader (exports: a document kept apart, whose links would only expire). */
  plainLinks?: boolean;
  /** The person's incident as read with it (links.ts incidentOfRecord); undefined when not read. */
  incident?: IncidentJoin | null;
}

/**
 * A record as the API shows it: common fields, the category's own data fields, its files, and the review flags.
 */
export function toRecordDto(row: RecordRow, files: MediaView[], mediaService: MediaService, { withTrash = false, reader = null, plainLinks = false, incident }: RecordDtoOptions = {}): RecordDto {
  const category = CATEGORIES[row.category as CategorySlug];
  const images: MediaDto[] = files.map((file) => mediaService.toDto(file, { reader: plainLinks ? null : reader }));
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
  };
  if (reader) dto.userId = row.userId;
  if (category) {
    for (const field of dataFields(category)) dto[field.name] = jsonValue((row as Record<string, unknown>)[field.name]);
    Object.assign(dto, linkFields(row, incident, { reader, keptApart: plainLinks }));
  }
  if (withTrash) {
    dto.deletedAt = row.deletedAt?.toISOString() ?? null;
    dto.deletedBy = row.deletedBy;
  }
  return dto;
}

export async function toRecordDtos(rows: RecordRow[], mediaService: MediaService, options: RecordDtoOptions = {}): Promise<RecordDto[]> {
  const files = await mediaService.forRecords(rows.map((r) => r.id));
  return rows.map((row) => toRecordDto(row, files.get(row.id) ?? [], mediaService, options));
}

export function toGalleryItem(
  row: { media: MediaRow; record: { id: string; category: string; title: string } },
  mediaService: MediaService,
  reader: LinkReader | null = null,
): GalleryItemDto {
  const file = mediaService.toDto(row.media, { reader });
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
