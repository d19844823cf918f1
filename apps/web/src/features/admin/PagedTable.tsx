import type { ReactNode } from 'react';
import { EmptyState, ErrorNotice, Loading } from '../../components/Status';
import { Pagination } from '../../components/Pagination';

/** What an admin list's query gives: one page of items and the list's total. */
interface PagedQuery<T> {
  isPending: boolean;
  error: unknown;
  data?: { items: T[]; total: number };
  refetch: () => unknown;
}

/**
 * An admin list as a table: loading, the error with a retry, the empty text, or the page's rows under their column
 * headings with the pager below.
 */
export function PagedTable<T>({
  query,
  headings,
  emptyText,
  page,
  pageSize,
  onPage,
  stacked = false,
  children,
}: {
  query: PagedQuery<T>;
  headings: ReactNode[];
  /** Shown instead of an empty table; without it the headings show over no rows. */
  emptyText?: string;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  /** Below 768px each row is a block of "label: value" lines (its cells carry `data-label`), so no column is off-screen. */
  stacked?: boolean;
  /** One item's row. */
  children: (item: T) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.error || !query.data) return <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />;
  const { items, total } = query.data;
  if (items.length === 0 && emptyText) return <EmptyState text={emptyText} />;
  return (
    <div className="admin-table-wrap">
      <table className={`admin-table${stacked ? ' is-stacked' : ''}`}>
        <thead>
          <tr>
            {headings.map((heading, i) => (
              <th key={i} scope="col">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{items.map(children)}</tbody>
      </table>
      <Pagination page={page} pageSize={pageSize} total={total} onPage={onPage} />
    </div>
  );
}
