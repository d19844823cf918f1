import { useTranslation } from '../lib/i18n';
import { Link, useSearchParams } from 'react-router';
import { reportNotFound } from '../lib/pageStatus';
import './media.css';

/** The page number lives in the URL (?page=2) so back/forward and shared links keep it. */
export function usePageParam(): number {
  const [params] = useSearchParams();
  const page = Number.parseInt(params.get('page') ?? '1', 10);
  return Number.isFinite(page) && page > 0 ? page : 1;
}

/**
 * The address of page `n` of the current one: `page` (left out for the first) and the `kept` parameters of the list,
 * nothing else of the address (a shared link's `?ref=` or `?next=` is not carried from page to page).
 */
function usePageHref(kept: readonly string[]): (n: number) => string {
  const [params] = useSearchParams();
  return (n: number) => {
    const next = new URLSearchParams();
    for (const name of kept) for (const value of params.getAll(name)) next.append(name, value);
    if (n > 1) next.set('page', String(n));
    const qs = next.toString();
    return qs ? `?${qs}` : '?';
  };
}

const NO_PARAMS: readonly string[] = [];

interface PagerProps {
  page: number;
  total: number;
  pageSize: number;
  /**
   * Where the pages are: 'address' (links to ?page=n, for public lists: they work before the app has started and can be
   * shared) or a callback (an editor's table whose page is the screen's state).
   */
  onPage: 'address' | ((page: number) => void);
  /** With 'address': the list's own parameters its page links keep besides `page` (a massacres list's `view`). */
  keep?: readonly string[];
}

/**
 * The site's one pager: previous, "Page n of m", next. Shown while there is more than one page, or on a page past the
 * end (an old shared link), which still offers the way back.
 */
export function Pagination({ page, total, pageSize, onPage, keep = NO_PARAMS }: PagerProps) {
  const { t } = useTranslation();
  const hrefOf = usePageHref(keep);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1 && page <= 1) return null;
  const pastEnd = page > pages;
  // A public list's page past its end (an old shared link) is no page: the server answers it 404, as search engines
  // should drop it, and the pager says how far the list goes rather than "Page 99 of 1".
  if (pastEnd && onPage === 'address') reportNotFound();
  const previous = Math.min(page - 1, pages);
  const step = (n: number, rel: 'prev' | 'next', label: string) =>
    onPage === 'address' ? (
      <Link to={hrefOf(n)} rel={rel} className="btn btn-secondary">
        {label}
      </Link>
    ) : (
      <button type="button" className="btn btn-secondary" onClick={() => onPage(n)}>
        {label}
      </button>
    );
  return (
    <nav className="pagination" aria-label={t('record.pagination')}>
      {page > 1 ? step(previous, 'prev', pastEnd ? t('record.lastPage') : t('record.previousPage')) : null}
      {pastEnd ? <span>{t('record.pastEnd', { page, count: pages })}</span> : <span aria-current="page">{t('record.pageOf', { page, pages })}</span>}
      {page < pages ? step(page + 1, 'next', t('record.nextPage')) : null}
    </nav>
  );
}
