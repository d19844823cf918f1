import { useTranslation } from '../../lib/i18n';
import { useNavigate } from 'react-router';
import { USERS_API_BASE, paths } from '@app/shared';
import { request } from '../../lib/api';
import { EmailField } from './AuthField';
import { useAccountForm } from './useAccountForm';
import { AccountForm, AccountPage } from './AccountForm';

const FIELDS = ['email'] as const;

/** /forgotpassword: asks for a reset link by e-mail, then /check-email. */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useAccountForm(FIELDS, (values) => request(`${USERS_API_BASE}/forgotpassword`, { method: 'POST', body: values, raw: true }));
  return (
    <AccountPage title={t('pages.forgotPassword')}>
      <AccountForm form={form} onSubmit={(e) => void form.onSubmit(e, () => navigate(paths.checkEmail))} submitLabel={t('account.send')}>
        <EmailField error={form.errors.email} />
      </AccountForm>
    </AccountPage>
  );
}
