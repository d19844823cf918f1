import { useTranslation } from '../lib/i18n';
import { Link } from 'react-router';
import { PageTitle } from './PageTitle';

export function NotFound() {
  const { t } = useTranslation();
  return (
    <section>
      <PageTitle title={t('pages.notFound')} />
      <p>{t('common.notFound')}</p>
      <Link to="/">{t('common.backHome')}</Link>
    </section>
  );
}
