import { useTranslation } from '../../lib/i18n';
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
