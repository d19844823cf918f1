import { useTranslation } from '../../lib/i18n';
import { AccountPage } from './AccountForm';

/** /check-email: shown after asking for a password reset. */
export default function CheckEmailPage() {
  const { t } = useTranslation();
  return <AccountPage title={t('pages.checkEmail')} />;
}
