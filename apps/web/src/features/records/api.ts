import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { SIGNED_LINK_WINDOW_SECONDS, type CategorySlug, type RecordDto } from '@app/shared';
import { request, requestPage } from '../../lib/api';

/** Query keys: a write invalidates `recordKeys.category(slug)` (lists and details) and `recordKeys.all` for news/gallery. */
const recordKeys = {
  all: ['records'] as const,
  category: (slug: CategorySlug) => ['records', slug] as const,
  list: (slug: CategorySlug, page: number, limit: number) => ['records', slug, 'list', page, limit] as const,
  detail: (slug: CategorySlug, id: string) => ['records', slug, 'detail', id] as const,
};

/**
 * Cards per list page. Twelve: a phone shows one or two cards per screen, and every card is markup to download, style,
 * lay out and adopt before the page answers taps. At 24 the cards were most of a list page's first layout and of its
 * blocking time in Lighthouse, for cards most visitors never scroll to. The API's own default stays 50.
 */
export const PAGE_SIZE = 12;

/**
 * A signed-in reader's records may link files that are not public with links signed for minutes: read again well
 * before they expire, so an image that loads late (lazily, or in the viewer) still opens.
 */
export function refreshSignedLinks(records: readonly RecordDto[] | undefined): number | false {
  const signed = records?.some((record) => record.images.some((image) => image.imageUrl.includes('?v=')));
  return signed ? (SIGNED_LINK_WINDOW_SECONDS * 1000) / 2 : false;
}

const recordListQuery = (slug: CategorySlug, page = 1, limit = PAGE_SIZE) =>
  queryOptions({
    queryKey: recordKeys.list(slug, page, limit),
    queryFn: ({ signal }) => requestPage<RecordDto>(`/${slug}`, { query: { limit, offset: (page - 1) * limit }, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => refreshSignedLinks(query.state.data?.items),
  });

const recordQuery = (slug: CategorySlug, id: string) =>
  queryOptions({
    queryKey: recordKeys.detail(slug, id),
    queryFn: ({ signal }) => request<RecordDto>(`/${slug}/${encodeURIComponent(id)}`, { signal }),
    refetchInterval: (query) => refreshSignedLinks(query.state.data ? [query.state.data] : undefined),
  });

export const useRecordList = (slug: CategorySlug, page = 1, limit = PAGE_SIZE) => useQuery(recordListQuery(slug, page, limit));
export const useRecord = (slug: CategorySlug, id: string, enabled = true) => useQuery({ ...recordQuery(slug, id), enabled });
