import { useTranslation } from '../../lib/i18n';

/** The outcome of an owner action, announced: a confirmation, or what failed and why (no silent failure). */
export type Feedback = { kind: 'ok'; text: string } | { kind: 'error'; text: string } | null;

export function ActionFeedback({ feedback }: { feedback: Feedback }) {
  return (
    <p className={`action-feedback ${feedback?.kind === 'error' ? 'field-error' : 'action-ok'}`} role={feedback?.kind === 'error' ? 'alert' : 'status'}>
      {feedback?.text ?? ''}
    </p>
  );
}

/** "Approve failed: <server message>". */
export function useFailureText() {
  const { t } = useTranslation();
  return (action: string, error: unknown) => t('editor.failed', { action, message: error instanceof Error ? error.message : String(error) });
}
