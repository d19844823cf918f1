import { useState, useSyncExternalStore } from 'react';
import { USERS_API_BASE } from '@app/shared';
import { ApiError, request } from '../lib/api';
import { useTranslation } from '../lib/i18n';
import { stepUp } from '../lib/step-up';
import { ConfirmDialog } from './ConfirmDialog';

/**
 * Asks for a fresh code from the authenticator app (or the password, for an account without one) when an action
 * needs step-up; the action is sent again once the server accepted it.
 */
export function StepUpPrompt() {
  const { t } = useTranslation();
  const open = useSyncExternalStore(stepUp.subscribe, stepUp.asking, () => false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (!open) return null;
  const close = (proved: boolean) => {
    setValue('');
    setError(null);
    stepUp.answer(proved);
  };
  const confirm = async () => {
    // Six digits or a recovery code is a code; anything else is the password.
    const typed = value.trim();
    const body = /^\d{6}$|^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/.test(typed) ? { code: typed } : { password: value };
    try {
      await request(`${USERS_API_BASE}/step-up`, { method: 'POST', body, raw: true, noStepUp: true });
      close(true);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    }
  };
  return (
    <ConfirmDialog title={t('accounts.stepUpTitle')} confirmLabel={t('accounts.verify')} cancelLabel={t('common.cancel')} onConfirm={() => void confirm()} onCancel={() => close(false)}>
      <p>{t('accounts.stepUpText')}</p>
      <label htmlFor="step-up-proof">{t('accounts.stepUpField')}</label>
      <input id="step-up-proof" type="password" autoComplete="one-time-code" value={value} onChange={(e) => setValue(e.target.value)} aria-describedby={error ? 'step-up-error' : undefined} />
      {error ? (
        <p id="step-up-error" role="alert" className="field-error">
          {error}
        </p>
      ) : null}
    </ConfirmDialog>
  );
}
