import { useTranslation } from 'react-i18next';
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
