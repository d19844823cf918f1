import { USERS_API_BASE } from '@app/shared';
import { request } from '../../lib/api';
import { useTranslation } from '../../lib/i18n';
import { AuthField } from './AuthField';
import { AccountForm } from './AccountForm';
import { useAccountForm } from './useAccountForm';

/** The second step of signing in to an account with two-step sign-in: a code for the challenge the password gave. */
export function SecondFactorStep({ challenge, onToken }: { challenge: string; onToken: (token: string) => void }) {
  const { t } = useTranslation();
  const form = useAccountForm(['code', 'challenge'], (values) =>
    request<{ token: string }>(`${USERS_API_BASE}/signin/2fa`, { method: 'POST', body: { ...values, challenge }, raw: true }),
  );
  return (
    <AccountForm form={form} submitLabel={t('accounts.verify')} onSubmit={(e) => void form.onSubmit(e, ({ token }) => onToken(token))}>
      <p>{t('accounts.signinCode')}</p>
      <AuthField name="code" autoComplete="one-time-code" label={t('accounts.code')} hint={t('accounts.codeHint')} error={form.errors.code ?? form.errors.challenge} />
    </AccountForm>
  );
}
