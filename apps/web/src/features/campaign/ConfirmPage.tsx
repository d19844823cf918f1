import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/translate';
import { Link, useParams } from 'react-router';
import { paths } from '@app/shared';
import { PageTitle } from '../../components/PageTitle';
import { ErrorNotice, Loading } from '../../components/Status';
import { ApiError } from '../../lib/api';
import { confirmLetter, readConfirmation, type LetterConfirmation } from './api';
import './campaign.css';

type Outcome = 'confirmed' | 'sent' | 'expired' | 'unknown' | 'failed';

/** What a letter's state, or a refused call, means to the sender; null while the letter waits for the button. */
function outcomeOf(letter: LetterConfirmation | undefined, error: unknown): Outcome | null {
  if (error instanceof ApiError && error.status === 404) return 'unknown';
  if (error instanceof ApiError && error.status === 410) return 'expired';
  switch (letter?.state) {
    case 'confirmed':
    case 'sent':
    case 'expired':
    case 'failed':
      return letter.state as Outcome;
    default:
      return null;
  }
}

const PROBLEMS: readonly Outcome[] = ['expired', 'unknown', 'failed'];

/**
 * /campaign/confirm/:token, opened from the e-mailed link. Opening it only reads the letter (mail scanners follow
 * links); the letter is sent when the sender presses "Send my letter".
 */
export default function ConfirmPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const letter = useQuery({
    queryKey: ['campaign', 'confirm', token],
    queryFn: ({ signal }) => readConfirmation(token, signal),
    retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 1,
    staleTime: 0,
  });
  const confirm = useMutation({ mutationFn: () => confirmLetter(token) });

  const current = confirm.data ?? letter.data;
  const outcome = outcomeOf(current, confirm.error ?? letter.error);
  const representative = current?.representative;
  const otherError = !outcome && (confirm.error ?? (letter.data ? null : letter.error));

  return (
    <section className="campaign-confirm">
      <PageTitle title={t('pages.campaignConfirm')} />
      {letter.isPending ? <Loading /> : null}
      {representative ? (
        <p data-testid="confirm-representative">{t('campaign.confirm.letterTo', { name: representative.name, district: representative.district })}</p>
      ) : null}

      <div className={`campaign-result${outcome && PROBLEMS.includes(outcome) ? ' is-problem' : ''}`} role="status">
        {outcome ? <p>{t(`campaign.confirm.${outcome}`, { name: representative?.name ?? '' })}</p> : null}
      </div>

      {otherError ? <ErrorNotice error={otherError} onRetry={confirm.error ? undefined : () => void letter.refetch()} /> : null}

      {current?.state === 'awaiting_confirmation' && !outcome ? (
        <>
          <p>{t('campaign.confirm.explain')}</p>
          <button type="button" className="btn" disabled={confirm.isPending} onClick={() => confirm.mutate()}>
            {confirm.isPending ? t('campaign.sending') : t('campaign.confirm.button')}
          </button>
        </>
      ) : null}

      {outcome === 'expired' || outcome === 'unknown' || outcome === 'failed' ? (
        <Link to={paths.home}>{t('campaign.confirm.writeAgain')}</Link>
      ) : null}
      {outcome === 'sent' || outcome === 'confirmed' ? <Link to={paths.reports}>{t('campaign.confirm.seeReports')}</Link> : null}
    </section>
  );
}
