import { useTranslation } from '../lib/i18n';
import { Link } from 'react-router';
import { reportNotFound } from '../lib/pageStatus';
import { PageTitle } from './PageTitle';

/**
 * "Page not found" with a way back: to the list the address belonged to when there is one (`back`), and home. The
 * server answers such a page with 404.
 */
export function NotFound({ message, back }: { message?: string; back?: { to: string; label: string } }) {
  const { t } = useTranslation();
  reportNotFound();
  return (
    <section className="not-found" data-testid="not-found">
      <PageTitle title={t('pages.notFound')} />
      <p>{message ?? t('common.notFound')}</p>
      <ul className="not-found-ways">
        {back ? (
          <li>
            <Link to={back.to}>{back.label}</Link>
          </li>
        ) : null}
        <li>
          <Link to="/">{t('common.backHome')}</Link>
        </li>
      </ul>
    </section>
  );
}
