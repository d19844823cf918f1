import { useTranslation } from '../../lib/i18n';
import { AccountMessage } from './AccountForm';

/** /activation-message: shown after sign-up. */
export default function ActivationMessagePage() {
  const { t } = useTranslation();
  return <AccountMessage title={t('pages.activationMessage')} hint={t('account.activationSentHint')} />;
}
