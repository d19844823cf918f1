import { Link, useLocation } from 'react-router';
import { can, paths } from '@app/shared';
import { Island } from '../islands/Island';
import { brand } from '../lib/brand';
import { useSession } from '../lib/session';
import { useTranslation } from '../lib/translate';
import { SiteMenu } from './SiteMenu';

/** The skip link, the brand link and the menu (an island: on a reading page it is the header's only code). */
export function Header() {
  const { t } = useTranslation();
  const user = useSession();
  const { pathname } = useLocation();
  const reader = { signedIn: Boolean(user), staff: Boolean(user && can.readAudit(user)) };
  return (
    <header className="site-header">
      <a className="skip-link" href="#main">
        {t('nav.skipToContent')}
      </a>
      <Link to={paths.home} className="brand">
        {brand.siteName}
      </Link>
      <Island name="menu" component={SiteMenu} props={{ current: pathname, reader, contactEmail: brand.contactEmail, socialUrl: brand.socialUrl }} />
    </header>
  );
}
