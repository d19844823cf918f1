import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { GalleryItemDto, RecordDto } from '@app/shared';
import { request, requestPage } from '../../lib/api';

/** One image of the derived gallery (GET /images); `_id` is the image's own id, used in /images/{id}. */
type GalleryItem = GalleryItemDto;

export const GALLERY_PAGE_SIZE = 48;
/** The viewer looks for an image's neighbours this many at a time. */
const SCAN_PAGE = 200;

// Under the records key, so record writes (which invalidate ['records']) refresh the gallery too.
const galleryKeys = {
  all: ['records', 'gallery'] as const,
  page: (page: number) => ['records', 'gallery', 'page', page] as const,
  image: (id: string) => ['records', 'gallery', 'image', id] as const,
  neighbours: (id: string) => ['records', 'gallery', 'neighbours', id] as const,
};

export const useGalleryPage = (page: number) =>
  useQuery(
    queryOptions({
      queryKey: galleryKeys.page(page),
      queryFn: ({ signal }) =>
        requestPage<GalleryItem>('/images', { query: { limit: GALLERY_PAGE_SIZE, offset: (page - 1) * GALLERY_PAGE_SIZE }, signal }),
      placeholderData: keepPreviousData,
    }),
  );

export const useGalleryImage = (id: string) =>
  useQuery({ queryKey: galleryKeys.image(id), queryFn: ({ signal }) => request<GalleryItem>(`/images/${encodeURIComponent(id)}`, { signal }) });

/** The record an image belongs to (its owner decides who may change the image). */
export const useImageRecord = (image: GalleryItem | undefined) =>
  useQuery({
    queryKey: ['records', image?.category, 'detail', image?.recordId],
    queryFn: ({ signal }) => request<RecordDto>(`/${image!.category}/${encodeURIComponent(image!.recordId)}`, { signal }),
    enabled: Boolean(image),
  });

interface Neighbours {
  previous: GalleryItem | null;
  next: GalleryItem | null;
  position: number;
  total: number;
}

/**
 * The images before and after `id` in gallery order (newest record first). The gallery is read in pages until the
 * image is found, so a shared /images/{id} link has working arrows without the gallery page having been visited.
 */
export const useGalleryNeighbours = (id: string) =>
  useQuery({
    queryKey: galleryKeys.neighbours(id),
    queryFn: async ({ signal }): Promise<Neighbours | null> => {
      let before: GalleryItem | null = null;
      for (let offset = 0; ; offset += SCAN_PAGE) {
        const { items, total } = await requestPage<GalleryItem>('/images', { query: { limit: SCAN_PAGE, offset }, signal });
        const index = items.findIndex((item) => item._id === id);
        if (index >= 0) {
          let next = items[index + 1] ?? null;
          if (!next && offset + items.length < total) {
            const more = await requestPage<GalleryItem>('/images', { query: { limit: 1, offset: offset + items.length }, signal });
            next = more.items[0] ?? null;
          }
          return { previous: index > 0 ? items[index - 1]! : before, next, position: offset + index + 1, total };
        }
        if (items.length === 0 || offset + items.length >= total) return null;
        before = items.at(-1) ?? null;
      }
    },
  });
