import { useTranslation } from '../../lib/i18n';
import { AccountMessage } from './AccountForm';

/** /check-email: shown after asking for a password reset. */
export default function CheckEmailPage() {
  const { t } = useTranslation();
  return <AccountMessage title={t('pages.checkEmail')} hint={t('account.resetSentHint')} />;
}
