import { useState, type FormEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { Link } from 'react-router';
import { can, getCategory, paths, type AuditChainReport, type AuditEntryDto } from '@app/shared';
import { request, requestPage } from '../../lib/api';
import { formatDateTime } from '../../lib/dates';
import { useSession } from '../../lib/session';
import { PageTitle } from '../../components/PageTitle';
import { ErrorNotice } from '../../components/Status';
import { ForbiddenNotice } from './ForbiddenNotice';
import { PagedTable, usePaging, type Column } from './PagedTable';
import './admin.css';

const PAGE_SIZE = 50;

/** An id's first eight characters: enough to tell entries apart on screen; the whole id is the button's name. */
const shortId = (id: string) => id.slice(0, 8);

interface Filter {
  recordId: string;
  actorId: string;
}

/** /admin/audit: the append-only log, newest first, filtered by record or user, with the hash chain's status. */
export default function AuditPage() {
  const { t, i18n } = useTranslation();
  const user = useSession();
  const allowed = can.readAudit(user);
  const paging = usePaging(PAGE_SIZE);
  const [filter, setFilter] = useState<Filter>({ recordId: '', actorId: '' });
  const entries = useQuery({
    queryKey: ['admin', 'audit', paging.page, filter],
    queryFn: ({ signal }) =>
      requestPage<AuditEntryDto>('/audit', {
        query: { limit: PAGE_SIZE, offset: paging.offset, recordId: filter.recordId, actorId: filter.actorId },
        signal,
      }),
    placeholderData: keepPreviousData,
    enabled: allowed,
  });
  const chain = useQuery({
    queryKey: ['admin', 'audit', 'verify'],
    queryFn: ({ signal }) => request<AuditChainReport>('/audit/verify', { signal }),
    enabled: allowed,
  });

  const title = t('pages.audit');
  if (!allowed) return <ForbiddenNotice title={title} />;

  const onFilter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    paging.setPage(1);
    setFilter({ recordId: String(data.get('recordId') ?? '').trim(), actorId: String(data.get('actorId') ?? '').trim() });
  };

  return (
    <section>
      <PageTitle title={title} />
      <ChainNotice chain={chain} />
      <form className="admin-filter" noValidate onSubmit={onFilter} key={`${filter.recordId}|${filter.actorId}`}>
        <label>
          {t('admin.filterRecord')}
          <input name="recordId" defaultValue={filter.recordId} />
        </label>
        <label>
          {t('admin.filterActor')}
          <input name="actorId" defaultValue={filter.actorId} />
        </label>
        <button type="submit" className="btn">
          {t('admin.filter')}
        </button>
        <button type="button" className="btn btn-secondary" onClick={() => setFilter({ recordId: '', actorId: '' })}>
          {t('admin.clearFilter')}
        </button>
      </form>
      <PagedTable
        query={entries}
        columns={auditColumns(t, i18n.language, setFilter)}
        rowKey={(row) => row.seq}
        emptyText={t('admin.noEntries')}
        paging={paging}
      />
    </section>
  );
}

/** The audit table's columns; a click on an actor's or a record's short id filters the log by it. */
function auditColumns(t: ReturnType<typeof useTranslation>['t'], language: string, setFilter: (filter: Filter) => void): Column<AuditEntryDto>[] {
  return [
    { heading: '#', cell: (row) => row.seq },
    { heading: t('admin.at'), cell: (row) => formatDateTime(row.at, language) },
    {
      heading: t('admin.actor'),
      // The person's name (as the account has it now), which filters the log by them; their role then, in words.
      cell: (row) => (
        <span>
          {row.actorId ? (
            <button type="button" className="link-button" onClick={() => setFilter({ recordId: '', actorId: row.actorId! })} title={row.actorId}>
              {row.actorName ?? <code>{shortId(row.actorId)}</code>}
            </button>
          ) : (
            t('admin.siteActor')
          )}
          {row.actorRole ? ` (${t(`admin.roles.${row.actorRole}`, { defaultValue: row.actorRole })})` : ''}
        </span>
      ),
    },
    { heading: t('admin.action'), cell: (row) => row.action },
    {
      heading: t('admin.record'),
      cell: (row) => (
        <span>
          <RecordCell row={row} onFilter={(recordId) => setFilter({ recordId, actorId: '' })} />
        </span>
      ),
    },
    { heading: t('admin.changes'), cell: (row) => <code>{Object.keys(row.changes ?? {}).join(', ')}</code> },
  ];
}

/** The record an entry is about: its title (or, without one, its category) linking to it, and its short id filtering by it. */
function RecordCell({ row, onFilter }: { row: AuditEntryDto; onFilter: (recordId: string) => void }) {
  const { t } = useTranslation();
  const category = row.category ? getCategory(row.category) : undefined;
  const label = row.subject ?? (category ? t(category.singular) : '');
  return (
    <>
      {category && row.recordId ? <Link to={paths.detail(category.slug, row.recordId)}>{label}</Link> : label}
      {row.recordId ? (
        <>
          {' '}
          <button type="button" className="link-button" onClick={() => onFilter(row.recordId!)} aria-label={row.recordId} title={row.recordId}>
            <code>{shortId(row.recordId)}</code>
          </button>
        </>
      ) : null}
    </>
  );
}

function ChainNotice({ chain }: { chain: ReturnType<typeof useQuery<AuditChainReport>> }) {
  const { t } = useTranslation();
  if (chain.isPending) return <p role="status">{t('admin.chainChecking')}</p>;
  if (chain.error) return <ErrorNotice error={chain.error} onRetry={() => void chain.refetch()} />;
  return chain.data.ok ? (
    <p className="chain-ok" role="status">
      {t('admin.chainOk', { entries: chain.data.entries })}
    </p>
  ) : (
    <p className="chain-broken" role="alert">
      {t('admin.chainBroken', { seq: chain.data.firstBrokenSeq, reason: chain.data.reason })}
    </p>
  );
}
