import { useTranslation } from '../../lib/i18n';
import { PageTitle } from '../../components/PageTitle';

/** /check-email: shown after asking for a password reset. */
export default function CheckEmailPage() {
  const { t } = useTranslation();
  return (
    <section className="account-page">
      <PageTitle title={t('pages.checkEmail')} />
    </section>
  );
}
