import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../components/PageTitle';

/** /activation-message: shown after sign-up. */
export default function ActivationMessagePage() {
  const { t } = useTranslation();
  return (
    <section className="account-page">
      <PageTitle title={t('pages.activationMessage')} />
    </section>
  );
}
