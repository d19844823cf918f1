import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ReportDto } from '@app/shared';
import { requestPage } from '../../lib/api';

/** A delivered campaign letter as /reports lists it: never the sender, only the letter. */
type Report = ReportDto;

export const REPORTS_PAGE_SIZE = 20;

export function useReportsPage(page: number) {
  return useQuery({
    queryKey: ['reports', page],
    queryFn: ({ signal }) =>
      requestPage<Report>('/reports', { query: { limit: REPORTS_PAGE_SIZE, offset: (page - 1) * REPORTS_PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
  });
}
