import { useTranslation } from '../../lib/i18n';
import { useSearchParams } from 'react-router';
import { AdoptLater } from '../../components/AdoptLater';
import { PageTitle } from '../../components/PageTitle';
import { RouteNotice } from '../../components/RouteNotice';
import { Pagination, usePageParam } from '../../components/Pagination';
import { EmptyState, ErrorNotice, Loading } from '../../components/Status';
import { PAGE_SIZE, useRecordList } from './api';
import { viewOf } from './categoryViews';
import { RecordCard } from './RecordCard';
import { useCategoryFromPath } from './useCategoryFromPath';
import './public.css';

/** What a list's page links keep besides the page: the massacres table view. */
const LIST_PARAMS = ['view'] as const;

type View = 'cards' | 'table';

/** Massacres can be read as cards or as a fact-sheet table; the choice is kept in the URL (?view=table). */
function ViewToggle({ view, onChange }: { view: View; onChange: (v: View) => void }) {
  const { t } = useTranslation();
  return (
    <div className="view-toggle" role="group" aria-label={t('record.view')}>
      {(['cards', 'table'] as const).map((v) => (
        <button key={v} type="button" aria-pressed={view === v} onClick={() => onChange(v)}>
          {v === 'cards' ? t('record.viewCards') : t('record.viewTable')}
        </button>
      ))}
    </div>
  );
}

/** Any category's list: title with the API total, one card per record, pages in the URL (?page=2). */
export default function ListPage() {
  const { t } = useTranslation();
  const category = useCategoryFromPath();
  const page = usePageParam();
  const [params, setParams] = useSearchParams();
  const Table = viewOf(category).table;
  const hasTable = Boolean(Table);
  const view: View = hasTable && params.get('view') === 'table' ? 'table' : 'cards';
  const { data, error, isPending, refetch } = useRecordList(category.slug, page);

  const setView = (v: View) => {
    const next = new URLSearchParams(params);
    if (v === 'table') next.set('view', 'table');
    else next.delete('view');
    setParams(next);
  };

  return (
    <section className={`record-list record-list-${category.slug}`}>
      <PageTitle title={t(category.listTitle, { total: data ? data.total : '…' })} />
      <RouteNotice />
      {hasTable ? <ViewToggle view={view} onChange={setView} /> : null}
      {isPending ? (
        <Loading />
      ) : error ? (
        <ErrorNotice error={error} onRetry={() => void refetch()} />
      ) : data.items.length === 0 ? (
        <>
          <EmptyState text={t(category.emptyText)} />
          {/* A page past the end (an old shared link) still offers the way back. */}
          <Pagination page={page} total={data.total} pageSize={PAGE_SIZE} onPage="address" keep={LIST_PARAMS} />
        </>
      ) : (
        <>
          {view === 'table' && Table ? (
            <Table records={data.items} />
          ) : (
            <div className="card-list">
              {data.items.map((record, index) => (
                <AdoptLater key={record._id}>
                  <RecordCard category={category} record={record} priority={index === 0} />
                </AdoptLater>
              ))}
            </div>
          )}
          <Pagination page={page} total={data.total} pageSize={PAGE_SIZE} onPage="address" keep={LIST_PARAMS} />
        </>
      )}
    </section>
  );
}
