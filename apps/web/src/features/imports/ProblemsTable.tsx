import { useState } from 'react';
import type { CategoryDef } from '@app/shared';
import { EmptyState, ErrorNotice, Loading } from '../../components/Status';
import { Pagination } from '../../components/Pagination';
import { useTranslation } from '../../lib/i18n';
import { downloadProblems, useProblems } from './api';

const PAGE_SIZE = 50;

/** Every problem the check found, a page at a time, and all of them as a CSV. */
export function ProblemsTable({ importId, category }: { importId: string; category: CategoryDef }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [failed, setFailed] = useState<string | null>(null);
  const fieldLabel = (name: string) => {
    const field = category.fields.find((f) => f.name === name);
    return field ? t(field.label) : name;
  };
  const problems = useProblems(importId, (page - 1) * PAGE_SIZE, PAGE_SIZE);
  if (problems.isPending) return <Loading />;
  if (problems.error || !problems.data) return <ErrorNotice error={problems.error} onRetry={() => void problems.refetch()} />;
  if (!problems.data.items.length) return <EmptyState text={t('imports.noProblems')} />;
  return (
    <div className="import-table-wrap">
      <p>
        <button type="button" className="btn btn-secondary" onClick={() => downloadProblems(importId).catch((err: Error) => setFailed(err.message))}>
          {t('imports.downloadProblems')}
        </button>
      </p>
      {failed && <p role="alert">{failed}</p>}
      <table className="import-table" data-testid="import-problems">
        <caption>{t('imports.problemsCaption', { total: problems.data.total })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('imports.row')}</th>
            <th scope="col">{t('imports.kind')}</th>
            <th scope="col">{t('imports.field')}</th>
            <th scope="col">{t('imports.message')}</th>
          </tr>
        </thead>
        <tbody>
          {problems.data.items.map((p, i) => (
            <tr key={`${p.row}-${i}`}>
              <td data-label={t('imports.row')}>{p.row}</td>
              <td data-label={t('imports.kind')}>{t(p.kind === 'error' ? 'imports.kindError' : 'imports.kindDuplicate')}</td>
              <td data-label={t('imports.field')}>{fieldLabel(p.field)}</td>
              <td data-label={t('imports.message')}>{p.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pagination page={page} pageSize={PAGE_SIZE} total={problems.data.total} onPage={setPage} />
    </div>
  );
}
