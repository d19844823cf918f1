import { useTranslation } from '../lib/i18n';
import { Link, useSearchParams } from 'react-router';
import './media.css';

/** The page number lives in the URL (?page=2) so back/forward and shared links keep it. */
export function usePageParam(): number {
  const [params] = useSearchParams();
  const page = Number.parseInt(params.get('page') ?? '1', 10);
  return Number.isFinite(page) && page > 0 ? page : 1;
}

export function Pagination({ page, total, pageSize }: { page: number; total: number; pageSize: number }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1 && page <= 1) return null;
  const to = (n: number) => {
    const next = new URLSearchParams(params);
    if (n <= 1) next.delete('page');
    else next.set('page', String(n));
    const qs = next.toString();
    return qs ? `?${qs}` : '?';
  };
  return (
    <nav className="pagination" aria-label={t('record.pagination')}>
      {page > 1 ? (
        <Link to={to(Math.min(page - 1, pages))} rel="prev">
          {t('record.previousPage')}
        </Link>
      ) : null}
      <span aria-current="page">{t('record.pageOf', { page, pages })}</span>
      {page < pages ? (
        <Link to={to(page + 1)} rel="next">
          {t('record.nextPage')}
        </Link>
      ) : null}
    </nav>
  );
}
