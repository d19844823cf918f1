import { useTranslation } from '../../lib/i18n';
import { useNavigate } from 'react-router';
import { USERS_API_BASE, paths } from '@app/shared';
import { request } from '../../lib/api';
import { PageTitle } from '../../components/PageTitle';
import { FormAlert } from '../../components/FormField';
import { EmailField } from './AuthField';
import { useAccountForm } from './useAccountForm';
import './auth.css';

const FIELDS = ['email'] as const;

/** /forgotpassword: asks for a reset link by e-mail, then /check-email. */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useAccountForm(FIELDS, (values) => request(`${USERS_API_BASE}/forgotpassword`, { method: 'POST', body: values, raw: true }));
  return (
    <section className="account-page">
      <PageTitle title={t('pages.forgotPassword')} />
      <form className="account-form" noValidate onSubmit={(e) => void form.onSubmit(e, () => navigate(paths.checkEmail))}>
        <FormAlert messages={form.general} />
        <EmailField error={form.errors.email} />
        <button type="submit" className="btn" disabled={form.pending}>
          {t('account.send')}
        </button>
      </form>
    </section>
  );
}
