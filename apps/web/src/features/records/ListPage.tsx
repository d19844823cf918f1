import { useTranslation } from '../../lib/translate';
import { useSearchParams } from 'react-router';
import { Island } from '../../islands/Island';
import { AdoptLater } from '../../components/AdoptLater';
import { PageTitle } from '../../components/PageTitle';
import { RouteNotice } from '../../components/RouteNotice';
import { Pagination, usePageParam } from '../../components/Pagination';
import { EmptyState, ErrorNotice, Loading } from '../../components/Status';
import { PAGE_SIZE, useRecordList } from './api';
import { viewOf } from './categoryViews';
import { RecordCard } from './RecordCard';
import { useCategoryFromPath } from './useCategoryFromPath';
import { ViewToggle, type View } from './ViewToggle';
import './public.css';

/** What a list's page links keep besides the page: the massacres table view. */
const LIST_PARAMS = ['view'] as const;

/** Any category's list: title with the API total, one card per record, pages in the URL (?page=2). */
export default function ListPage() {
  const { t } = useTranslation();
  const category = useCategoryFromPath();
  const page = usePageParam();
  const [params] = useSearchParams();
  const Table = viewOf(category).table;
  const hasTable = Boolean(Table);
  const view: View = hasTable && params.get('view') === 'table' ? 'table' : 'cards';
  const { data, error, isPending, refetch } = useRecordList(category.slug, page);

  return (
    <section className={`record-list record-list-${category.slug}`}>
      <PageTitle title={t(category.listTitle, { total: data ? data.total : '…' })} />
      <RouteNotice />
      {hasTable ? <Island name="viewToggle" component={ViewToggle} props={{ view }} /> : null}
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
