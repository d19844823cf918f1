import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { USERS_API_BASE, paths, type SessionItem } from '@app/shared';
import { request } from '../../lib/api';
import { formatDate } from '../../lib/dates';
import { useTranslation } from '../../lib/i18n';
import { AccountPage } from './AccountForm';

const SESSIONS_KEY = ['account', 'sessions'];

/** /account/sessions: where the account is signed in; any session but this one can be ended, or all of them at once. */
export default function SessionsPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<string | null>(null);
  const sessions = useQuery({ queryKey: SESSIONS_KEY, queryFn: ({ signal }) => request<SessionItem[]>(`${USERS_API_BASE}/sessions`, { raw: true, signal }) });
  const end = useMutation({
    mutationFn: (id: string | null) =>
      request<{ ended?: number }>(id ? `${USERS_API_BASE}/sessions/${encodeURIComponent(id)}` : `${USERS_API_BASE}/sessions`, { method: 'DELETE', raw: true }),
    onSuccess: (result, id) => {
      setNotice(id ? t('accounts.ended') : t('accounts.endedOthers', { count: result.ended ?? 0 }));
      return queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    },
    onError: (err) => setNotice(t('accounts.failed', { message: err instanceof Error ? err.message : String(err) })),
  });
  const date = (iso: string) => formatDate(iso, i18n.language);
  return (
    <AccountPage title={t('pages.sessions')}>
      <p>
        <Link to={paths.twoFactor}>{t('accounts.twoFactorTitle')}</Link>
      </p>
      <p>{t('accounts.sessionsText')}</p>
      <p role="status" data-testid="sessions-notice">
        {notice}
      </p>
      <div className="sessions-table-wrap">
        <table className="sessions-table">
          <thead>
            <tr>
              <th scope="col">{t('accounts.browser')}</th>
              <th scope="col">{t('accounts.address')}</th>
              <th scope="col">{t('accounts.started')}</th>
              <th scope="col">{t('accounts.lastSeen')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('accounts.end')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(sessions.data ?? []).map((s) => (
              <tr key={s.id} data-testid="session-row">
                <td data-label={t('accounts.browser')}>{s.browser}</td>
                <td data-label={t('accounts.address')}>{s.address}</td>
                <td data-label={t('accounts.started')}>{date(s.createdAt)}</td>
                <td data-label={t('accounts.lastSeen')}>{date(s.lastSeenAt)}</td>
                <td>
                  {s.current ? (
                    <strong>{t('accounts.current')}</strong>
                  ) : (
                    <button type="button" className="btn btn-secondary" disabled={end.isPending} aria-label={t('accounts.endWho', { browser: s.browser, date: date(s.createdAt) })} onClick={() => end.mutate(s.id)}>
                      {t('accounts.end')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <button type="button" className="btn" disabled={end.isPending} onClick={() => end.mutate(null)}>
        {t('accounts.endOthers')}
      </button>
      <OwnReads />
    </AccountPage>
  );
}

interface OwnRead {
  at: string;
  recordId: string;
  category: string;
  kind: string;
}

/** The account's own entries in the access log: what it read that the public cannot. */
function OwnReads() {
  const { t, i18n } = useTranslation();
  const reads = useQuery({ queryKey: ['account', 'access-log'], queryFn: ({ signal }) => request<OwnRead[]>(`${USERS_API_BASE}/access-log`, { raw: true, signal }) });
  return (
    <section aria-labelledby="own-reads-title" className="own-reads">
      <h2 id="own-reads-title">{t('accounts.ownReadsTitle')}</h2>
      <p>{t('accounts.ownReadsText')}</p>
      {reads.data && reads.data.length === 0 ? <p>{t('accounts.accessLogEmpty')}</p> : null}
      <ul data-testid="own-reads">
        {(reads.data ?? []).map((read) => (
          <li key={`${read.at}-${read.recordId}`}>
            {formatDate(read.at, i18n.language)}: {t(read.kind === 'private' ? 'accounts.kindPrivate' : 'accounts.kindWithheld')} <code>{`${read.category}/${read.recordId}`}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}
