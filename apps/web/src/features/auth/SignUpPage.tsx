import { useTranslation } from '../../lib/i18n';
import { Link, useNavigate } from 'react-router';
import { USERS_API_BASE, paths } from '@app/shared';
import { request } from '../../lib/api';
import { fieldAria, FormField } from '../../components/FormField';
import { AuthField, EmailField } from './AuthField';
import { useAccountForm } from './useAccountForm';
import { AccountForm, AccountPage } from './AccountForm';

const FIELDS = ['firstName', 'lastName', 'email', 'password', 'password2', 'organisation', 'reason'] as const;

/** /signup (with the optional organisation and reason an admin reads in the accounts queue): on success the activation link is e-mailed and the user goes to /activation-message. */
export default function SignUpPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useAccountForm(FIELDS, (values) => request(`${USERS_API_BASE}/signup`, { method: 'POST', body: values, raw: true }));
  return (
    <AccountPage title={t('pages.signup')}>
      <AccountForm form={form} onSubmit={(e) => void form.onSubmit(e, () => navigate(paths.activationMessage))} submitLabel={t('account.signUp')}>
        <AuthField name="firstName" autoComplete="given-name" label={t('account.firstName')} error={form.errors.firstName} />
        <AuthField name="lastName" autoComplete="family-name" label={t('account.lastName')} error={form.errors.lastName} />
        <EmailField error={form.errors.email} />
        <AuthField name="password" type="password" autoComplete="new-password" label={t('account.password')} error={form.errors.password} />
        <AuthField name="password2" type="password" autoComplete="new-password" label={t('account.password2')} error={form.errors.password2} />
        <AuthField name="organisation" autoComplete="organization" label={t('accounts.organisation')} error={form.errors.organisation} />
        <FormField id="account-reason" label={t('accounts.reason')} hint={t('accounts.reasonHint')} error={form.errors.reason}>
          <textarea name="reason" rows={3} maxLength={2000} {...fieldAria('account-reason', { hint: t('accounts.reasonHint'), error: form.errors.reason })} />
        </FormField>
      </AccountForm>
      <p>
        <Link to={paths.signin}>{t('account.signInLink')}</Link>
      </p>
    </AccountPage>
  );
}
