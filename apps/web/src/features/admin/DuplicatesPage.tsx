import { useState } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { can, CATEGORIES, paths, type DuplicatePair, type DuplicatePairPerson } from '@app/shared';
import { request, requestCursorPage } from '../../lib/api';
import { formatDate } from '../../lib/dates';
import { useTranslation } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import { PageTitle } from '../../components/PageTitle';
import { ForbiddenNotice } from './ForbiddenNotice';
import './admin.css';

/** Pairs per page. */
const PAGE_SIZE = 50;

type Answer = { kind: 'merge'; keep: DuplicatePairPerson; merge: DuplicatePairPerson } | { kind: 'dismiss'; pair: DuplicatePair };

type T = ReturnType<typeof useTranslation>['t'];

/** A person as the buttons' names and the question name them: the name, then what tells the two apart. */
function describe(person: DuplicatePairPerson, t: T, language: string): string {
  const facts = [t(CATEGORIES[person.category].singular), person.happenedOn ? formatDate(person.happenedOn, language) : null, person.woreda].filter(Boolean);
  return `${person.fullName ?? person.title} (${facts.join(', ')})`;
}

/** What merging `from` into another moves: its files and sources (withheld testimonies named), its confirmation. */
function holdings(person: DuplicatePairPerson, t: T): string {
  const { files, sources, withheldSources, confirmed } = person.holds;
  const parts = [t('duplicates.holds.files', { count: files }), t('duplicates.holds.sources', { count: sources })];
  if (withheldSources) parts.push(t('duplicates.holds.withheld', { count: withheldSources }));
  return [...parts, t(confirmed ? 'common.confirmed' : 'common.notConfirmed')].join(' · ');
}

/** One side of a pair: name, category, date, place, what it holds, and a link to the record. */
function Person({ person }: { person: DuplicatePairPerson }) {
  const { t, i18n } = useTranslation();
  const facts = [t(CATEGORIES[person.category].singular), person.happenedOn ? formatDate(person.happenedOn, i18n.language) : null, person.woreda].filter(Boolean);
  return (
    <div className="duplicate-person">
      <Link to={paths.detail(person.category, person._id)}>{person.fullName ?? person.title}</Link>
      <span>{facts.join(' · ')}</span>
      <span className="duplicate-holds">{holdings(person, t)}</span>
    </div>
  );
}

/** The question before a merge: what moves from the merged record to the kept one, and what becomes of a testimony. */
function mergeQuestion(keep: DuplicatePairPerson, merged: DuplicatePairPerson, t: T, language: string): string {
  const { files, sources, withheldSources, confirmed } = merged.holds;
  const lines = [t('duplicates.confirmMerge', { title: describe(keep, t, language), other: describe(merged, t, language) })];
  lines.push(
    files || sources
      ? t('duplicates.moves', { what: [t('duplicates.holds.files', { count: files }), t('duplicates.holds.sources', { count: sources })].join(', ') })
      : t('duplicates.movesNothing'),
  );
  if (withheldSources) lines.push(t('duplicates.withheldMoves', { count: withheldSources }));
  if (confirmed && !keep.holds.confirmed) lines.push(t('duplicates.confirmationMoves'));
  return lines.join('\n\n');
}

interface PairItemProps {
  pair: DuplicatePair;
  /** Its place in the list, counted from 1: the buttons' names say it. */
  number: number;
  busy: boolean;
  onMerge: (keep: DuplicatePairPerson, merged: DuplicatePairPerson) => void;
  onDismiss: () => void;
}

/** One pair: both records, why they may be one person, and the answers (merge keeping either, or not the same). */
function PairItem({ pair, number, busy, onMerge, onDismiss }: PairItemProps) {
  const { t, i18n } = useTranslation();
  // Each button's name says its pair and which record it keeps (a list of pairs has many buttons of the same words).
  const named = (key: string, kept: DuplicatePairPerson, other: DuplicatePairPerson) =>
    t(key, { pair: number, kept: describe(kept, t, i18n.language), other: describe(other, t, i18n.language) });
  return (
      <li data-testid="duplicate-pair">
        <div className="duplicate-sides">
          <Person person={pair.first} />
          <Person person={pair.second} />
        </div>
        <p className="duplicate-reasons">
          {t('duplicates.likelihood', { percent: Math.round(pair.score * 100) })}: {pair.reasons.map((r) => t(`duplicates.reason.${r}`)).join(', ')}
        </p>
        <div className="admin-actions">
          <button
            type="button"
            className="btn"
            disabled={busy}
            aria-label={named('duplicates.keepFirstNamed', pair.first, pair.second)}
            onClick={() => onMerge(pair.first, pair.second)}
          >
            {t('duplicates.keepFirst')}
          </button>
          <button
            type="button"
            className="btn"
            disabled={busy}
            aria-label={named('duplicates.keepSecondNamed', pair.second, pair.first)}
            onClick={() => onMerge(pair.second, pair.first)}
          >
            {t('duplicates.keepSecond')}
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={busy}
            aria-label={named('duplicates.notSameNamed', pair.first, pair.second)}
            onClick={onDismiss}
          >
            {t('duplicates.notSame')}
          </button>
        </div>
      </li>
  );
}

/**
 * /admin/duplicates: pairs of records that may be the same person, most likely first. An admin merges a pair (keeping
 * either record) or marks it as two different people, after which it is never shown again (docs/duplicates.md).
 */
export default function DuplicatesPage() {
  const { t, i18n } = useTranslation();
  const user = useSession();
  const queryClient = useQueryClient();
  const [feedback, setFeedback] = useState<{ ok: boolean; text: string } | null>(null);
  // Pairs of the whole collection, best first, 50 at a time: "Show more pairs" asks for the page after the last one.
  const pairs = useInfiniteQuery({
    queryKey: ['admin', 'duplicates'],
    queryFn: ({ pageParam, signal }) =>
      requestCursorPage<DuplicatePair>('/duplicates', { query: { limit: PAGE_SIZE, cursor: pageParam }, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    enabled: can.approve(user),
  });
  const answer = useMutation({
    mutationFn: (a: Answer) =>
      a.kind === 'merge'
        ? request('/duplicates/merge', { method: 'POST', body: { keep: a.keep._id, merge: a.merge._id } })
        : request('/duplicates/dismiss', { method: 'POST', body: { first: a.pair.first._id, second: a.pair.second._id } }),
    onSuccess: (_data, a) => {
      setFeedback({ ok: true, text: t(a.kind === 'merge' ? 'duplicates.merged' : 'duplicates.dismissed') });
      return queryClient.invalidateQueries();
    },
    onError: (err) => setFeedback({ ok: false, text: t('duplicates.failed', { message: err.message }) }),
  });
  const merge = (keep: DuplicatePairPerson, other: DuplicatePairPerson) => {
    if (window.confirm(mergeQuestion(keep, other, t, i18n.language))) answer.mutate({ kind: 'merge', keep, merge: other });
  };

  const title = t('pages.duplicates');
  if (!can.approve(user)) return <ForbiddenNotice title={title} />;
  const list = pairs.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section className="duplicates-page">
      <PageTitle title={title} />
      <p>{t('duplicates.pageIntro')}</p>
      {feedback ? (
        <p className={feedback.ok ? 'admin-ok' : 'field-error'} role={feedback.ok ? 'status' : 'alert'}>
          {feedback.text}
        </p>
      ) : null}
      {pairs.isPending ? <p role="status">{t('common.loading')}</p> : null}
      {pairs.isError ? <p role="alert">{t('duplicates.failed', { message: pairs.error.message })}</p> : null}
      {pairs.isSuccess && !list.length ? <p>{t('duplicates.empty')}</p> : null}
      <ol className="duplicate-pairs">
        {list.map((pair, index) => (
          <PairItem key={`${pair.first._id}/${pair.second._id}`} pair={pair} number={index + 1} busy={answer.isPending} onMerge={merge} onDismiss={() => answer.mutate({ kind: 'dismiss', pair })} />
        ))}
      </ol>
      {pairs.hasNextPage ? (
        <button type="button" className="btn btn-secondary" disabled={pairs.isFetchingNextPage} onClick={() => void pairs.fetchNextPage()}>
          {pairs.isFetchingNextPage ? t('common.loading') : t('duplicates.more')}
        </button>
      ) : null}
    </section>
  );
}
