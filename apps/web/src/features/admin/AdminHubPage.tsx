import { Link } from 'react-router';
import { can, paths } from '@app/shared';
import { PageTitle } from '../../components/PageTitle';
import { useTranslation } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import { ForbiddenNotice } from './ForbiddenNotice';
import './admin.css';

interface HubEntry {
  key: string;
  /** The screen; none when the setting lives elsewhere (the entry says where). */
  to?: string;
  /** Shown only to readers this allows (the others' screens would refuse them). */
  shownTo: (user: ReturnType<typeof useSession>) => boolean;
}

const ENTRIES: readonly HubEntry[] = [
  { key: 'accounts', to: paths.accountsQueue, shownTo: can.approveAccounts },
  { key: 'users', to: paths.users, shownTo: can.manageUsers },
  { key: 'audit', to: paths.audit, shownTo: can.readAudit },
  { key: 'accessLog', to: paths.accessLog, shownTo: can.readAudit },
  { key: 'trash', to: paths.trash, shownTo: can.restore },
  { key: 'duplicates', to: paths.duplicates, shownTo: can.approve },
  { key: 'testimonies', to: paths.testimonies, shownTo: can.approve },
  { key: 'imports', to: paths.imports, shownTo: can.create },
  { key: 'checkpoints', to: paths.checkpoints, shownTo: can.readAudit },
  { key: 'representatives', to: paths.representatives, shownTo: can.manageDirectory },
  { key: 'captures', shownTo: can.readAudit },
];

/** /admin: the administrators' screens, each with a line saying what it is for. */
export default function AdminHubPage() {
  const { t } = useTranslation();
  const user = useSession();
  const title = t('pages.admin');
  if (!can.readAudit(user)) return <ForbiddenNotice title={title} />;
  return (
    <section className="admin-hub">
      <PageTitle title={title} />
      <ul className="admin-hub-list">
        {ENTRIES.filter((entry) => entry.shownTo(user)).map((entry) => (
          <li key={entry.key} data-testid={`admin-hub-${entry.key}`}>
            <h2>{entry.to ? <Link to={entry.to}>{t(`admin.hub.${entry.key}`)}</Link> : t(`admin.hub.${entry.key}`)}</h2>
            <p>{t(`admin.hub.${entry.key}About`)}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
