import { useTranslation } from '../../lib/i18n';
import { useNavigate, useParams } from 'react-router';
import { USERS_API_BASE, paths } from '@app/shared';
import { request } from '../../lib/api';
import { AuthField, EmailField } from './AuthField';
import { useAccountForm } from './useAccountForm';
import { AccountForm, AccountPage } from './AccountForm';

const FIELDS = ['email', 'password', 'password2'] as const;

/** /resetpassword/{token}: sets a new password, then /signin, which says the password was changed. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token = '' } = useParams();
  const form = useAccountForm(FIELDS, (values) =>
    request(`${USERS_API_BASE}/resetpassword/${encodeURIComponent(token)}`, { method: 'POST', body: values, raw: true }),
  );
  return (
    <AccountPage title={t('pages.resetPassword')}>
      <AccountForm form={form} onSubmit={(e) => void form.onSubmit(e, () => navigate(paths.signin, { state: { notice: t('account.passwordChanged') } }))} submitLabel={t('account.resetPassword')}>
        <EmailField error={form.errors.email} />
        <AuthField name="password" type="password" autoComplete="new-password" label={t('account.password')} error={form.errors.password} />
        <AuthField name="password2" type="password" autoComplete="new-password" label={t('account.password2')} error={form.errors.password2} />
      </AccountForm>
    </AccountPage>
  );
}
