import { useTranslation } from '../../lib/i18n';
import { SignInForm } from './SignInForm';

/** /signin */
export default function SignInPage() {
  const { t } = useTranslation();
  return <SignInForm title={t('pages.signin')} />;
}
