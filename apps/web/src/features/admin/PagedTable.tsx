import { useState, type ReactNode } from 'react';
import { EmptyState, ErrorNotice, Loading } from '../../components/Status';
import { Pagination } from '../../components/Pagination';

/** What an admin list's query gives: one page of items and the list's total. */
interface PagedQuery<T> {
  isPending: boolean;
  error: unknown;
  data?: { items: T[]; total: number };
  refetch: () => unknown;
}

/** One column of an admin table: its heading, and what each item shows under it. */
export interface Column<T> {
  heading: string;
  cell: (item: T) => ReactNode;
  className?: string;
}

/** Which page of an admin list is shown: the page (from 1), its size, and the offset to ask the API for. */
export interface Paging {
  page: number;
  pageSize: number;
  offset: number;
  setPage: (page: number) => void;
}

export function usePaging(pageSize: number): Paging {
  const [page, setPage] = useState(1);
  return { page, pageSize, offset: (page - 1) * pageSize, setPage };
}

/**
 * An admin list as a table: loading, the error with a retry, the empty text, or the page's rows under their column
 * headings with the pager below. Each cell carries its column's heading as `data-label`: below 768px each row is a
 * block of "label: value" lines, so no column is off-screen.
 */
export function PagedTable<T>({
  query,
  columns,
  rowKey,
  emptyText,
  paging,
}: {
  query: PagedQuery<T>;
  columns: Column<T>[];
  rowKey: (item: T) => string | number;
  /** Shown instead of an empty table; without it the headings show over no rows. */
  emptyText?: string;
  paging: Paging;
}) {
  if (query.isPending) return <Loading />;
  if (query.error || !query.data) return <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />;
  const { items, total } = query.data;
  if (items.length === 0 && emptyText) return <EmptyState text={emptyText} />;
  return (
    <div className="admin-table-wrap">
      <table className="admin-table is-stacked">
        <thead>
          <tr>
            {columns.map((column, i) => (
              <th key={i} scope="col">
                {column.heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={rowKey(item)}>
              {columns.map((column, i) => (
                <td key={i} data-label={column.heading} className={column.className}>
                  {column.cell(item)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <Pagination page={paging.page} pageSize={paging.pageSize} total={total} onPage={paging.setPage} />
    </div>
  );
}
