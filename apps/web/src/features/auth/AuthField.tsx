import { useTranslation } from '../../lib/i18n';
import { fieldAria, FormField } from '../../components/FormField';

interface AuthFieldProps {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  hint?: string;
  error?: string;
}

/** One labelled input of an account form, with its hint and the server's error tied to it for screen readers. */
export function AuthField({ name, label, type = 'text', autoComplete, hint, error }: AuthFieldProps) {
  const id = `account-${name}`;
  return (
    <FormField id={id} label={label} hint={hint} error={error}>
      <input name={name} type={type} autoComplete={autoComplete} {...fieldAria(id, { hint, error })} />
    </FormField>
  );
}

export function EmailField({ error }: { error?: string }) {
  const { t } = useTranslation();
  return <AuthField name="email" type="email" autoComplete="email" label={t('account.email')} hint={t('hint.email')} error={error} />;
}
