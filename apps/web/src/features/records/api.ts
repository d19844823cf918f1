import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { CategorySlug, RecordDto } from '@app/shared';
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

const recordListQuery = (slug: CategorySlug, page = 1, limit = PAGE_SIZE) =>
  queryOptions({
    queryKey: recordKeys.list(slug, page, limit),
    queryFn: ({ signal }) => requestPage<RecordDto>(`/${slug}`, { query: { limit, offset: (page - 1) * limit }, signal }),
    placeholderData: keepPreviousData,
  });

const recordQuery = (slug: CategorySlug, id: string) =>
  queryOptions({
    queryKey: recordKeys.detail(slug, id),
    queryFn: ({ signal }) => request<RecordDto>(`/${slug}/${encodeURIComponent(id)}`, { signal }),
  });

export const useRecordList = (slug: CategorySlug, page = 1, limit = PAGE_SIZE) => useQuery(recordListQuery(slug, page, limit));
export const useRecord = (slug: CategorySlug, id: string, enabled = true) => useQuery({ ...recordQuery(slug, id), enabled });
