import { useTranslation } from 'react-i18next';
import { SignInForm } from './SignInForm';

/** /signin */
export default function SignInPage() {
  const { t } = useTranslation();
  return <SignInForm title={t('pages.signin')} />;
}
