import { useEffect, useState, type RefObject } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { paths, type CategoryDef, type DuplicateCandidate } from '@app/shared';
import { request } from '../../lib/api';
import { useTranslation } from '../../lib/i18n';
import { formatDate } from '../../lib/dates';

/** What the check is asked: the name being typed, and what else the form says (docs/duplicates.md). */
export interface DuplicateQuestion {
  name: string;
  happenedOn?: string;
  woreda?: string;
  incidentId?: string;
}

/** Waits this long after the last keystroke before asking, so typing a name asks once, not per letter. */
const TYPING_PAUSE_MS = 400;

/** The question a person form asks now: its fullName (else its title), date, woreda and incident. */
export function duplicateQuestion(form: HTMLFormElement): DuplicateQuestion {
  const data = new FormData(form);
  const value = (name: string) => {
    const v = data.get(name);
    return typeof v === 'string' && v.trim() ? v.trim() : undefined;
  };
  return { name: value('fullName') ?? value('title') ?? '', happenedOn: value('happenedOn'), woreda: value('woreda'), incidentId: value('incidentId') };
}

/**
 * The question a person form asks, asked again on every input (`askAgain`, the form's onInput). An edited person's own
 * duplicates are shown at once; a new one's once a name is typed. Null for categories that do not check.
 */
export function useDuplicateQuestion(category: CategoryDef, formRef: RefObject<HTMLFormElement | null>) {
  const [question, setQuestion] = useState<DuplicateQuestion | null>(null);
  const askAgain = () => {
    if (category.checksDuplicates && formRef.current) setQuestion(duplicateQuestion(formRef.current));
  };
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(askAgain, []);
  return { question, askAgain };
}

function useSettled<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/**
 * Likely duplicates of the person being added or edited, shown under the form while it is filled in, before saving:
 * each with its date and woreda, why it may be the same person, and a link to it (opened beside the form, so nothing
 * typed is lost).
 */
export function DuplicateWarning({ category, question, recordId }: { category: CategoryDef; question: DuplicateQuestion; recordId?: string }) {
  const { t, i18n } = useTranslation();
  const settled = useSettled(question, TYPING_PAUSE_MS);
  const asked = settled.name.length >= 2;
  const { data } = useQuery({
    queryKey: ['duplicates', category.slug, settled, recordId ?? null],
    queryFn: ({ signal }) => request<DuplicateCandidate[]>(`/${category.slug}/duplicates`, { query: { ...settled, id: recordId }, signal }),
    enabled: asked,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const candidates = asked ? (data ?? []) : [];
  return (
    <div className="duplicate-warning" role="status" aria-live="polite">
      {candidates.length > 0 ? (
        <section aria-labelledby="duplicate-warning-title">
          <h2 id="duplicate-warning-title">{t('duplicates.warningTitle', { n: candidates.length })}</h2>
          <p>{t('duplicates.warningText')}</p>
          <ul>
            {candidates.map((candidate) => (
              <li key={candidate._id}>
                <a href={paths.detail(candidate.category, candidate._id)} target="_blank" rel="noopener noreferrer">
                  {candidate.fullName ?? candidate.title}
                </a>{' '}
                <span className="duplicate-facts">
                  {[candidate.happenedOn ? formatDate(candidate.happenedOn, i18n.language) : null, candidate.woreda].filter(Boolean).join(' · ')}
                </span>
                <span className="duplicate-reasons">
                  {candidate.reasons.map((reason) => t(`duplicates.reason.${reason}`)).join(', ')} ({Math.round(candidate.score * 100)}%)
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
