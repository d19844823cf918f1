import { useTranslation } from '../lib/translate';

/** "Loading..." while data is pending, announced to screen readers. */
export function Loading({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <p className="status" role="status" aria-live="polite">
      {label ?? t('common.loading')}
    </p>
  );
}

/** A failed call, said plainly, with a retry when one makes sense. */
export function ErrorNotice({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className="error-notice" role="alert">
      <p>{t('common.error', { message })}</p>
      {onRetry ? (
        <button type="button" onClick={onRetry}>
          {t('common.retry')}
        </button>
      ) : null}
    </div>
  );
}

export function EmptyState({ text }: { text: string }) {
  return <p className="empty-state">{text}</p>;
}
