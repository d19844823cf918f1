import { useTranslation } from '../../lib/i18n';
import { AccountPage } from './AccountForm';

/** /activation-message: shown after sign-up. */
export default function ActivationMessagePage() {
  const { t } = useTranslation();
  return <AccountPage title={t('pages.activationMessage')} />;
}
