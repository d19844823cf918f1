import { Link } from 'react-router';
import { paths } from '@app/shared';
import { useTranslation } from '../../lib/i18n';
import { AccountPage } from './AccountForm';

/** /account/pending: what a signed-in account sees until an administrator approves it (decisions.md §4). */
export default function PendingPage() {
  const { t } = useTranslation();
  return (
    <AccountPage title={t('pages.pending')}>
      <div className="account-message" data-testid="pending-account">
        <p className="account-message-lead">{t('accounts.pendingText')}</p>
        <p>{t('accounts.pendingMore')}</p>
        <p>
          <Link to={paths.sessions}>{t('accounts.sessionsLink')}</Link>
        </p>
        <p>
          <Link to={paths.logout}>{t('accounts.signOut')}</Link>
        </p>
      </div>
    </AccountPage>
  );
}
