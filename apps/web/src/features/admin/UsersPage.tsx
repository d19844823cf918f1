import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { ROLES, USERS_API_BASE, can, type Role, type UserListItem } from '@app/shared';
import { request, requestPage } from '../../lib/api';
import { formatDate } from '../../lib/dates';
import { useSession } from '../../lib/session';
import { PageTitle } from '../../components/PageTitle';
import { ForbiddenNotice } from './ForbiddenNotice';
import { PagedTable } from './PagedTable';
import './admin.css';

const PAGE_SIZE = 50;

/** /admin/users (super): every account, with its role changeable (PUT /api/users/{id}/role). */
export default function UsersPage() {
  const { t, i18n } = useTranslation();
  const me = useSession();
  const allowed = can.manageUsers(me);
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [feedback, setFeedback] = useState<{ ok: boolean; text: string } | null>(null);
  const users = useQuery({
    queryKey: ['admin', 'users', page],
    queryFn: ({ signal }) =>
      requestPage<UserListItem>(USERS_API_BASE, { raw: true, query: { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
    enabled: allowed,
  });
  const changeRole = useMutation({
    mutationFn: ({ user, role }: { user: UserListItem; role: Role }) =>
      request<UserListItem>(`${USERS_API_BASE}/${encodeURIComponent(user.id)}/role`, { method: 'PUT', body: { role }, raw: true }),
    onSuccess: (updated) => {
      setFeedback({ ok: true, text: t('admin.roleChanged', { name: fullName(updated), role: t(`admin.roles.${updated.role}`) }) });
      return queryClient.invalidateQueries({ queryKey: ['admin', 'users'] });
    },
    onError: (err) => setFeedback({ ok: false, text: t('editor.failed', { action: t('admin.role'), message: err.message }) }),
  });

  const title = t('pages.users');
  if (!allowed) return <ForbiddenNotice title={title} />;

  return (
    <section>
      <PageTitle title={title} />
      {feedback ? (
        <p className={feedback.ok ? 'admin-ok' : 'field-error'} role={feedback.ok ? 'status' : 'alert'}>
          {feedback.text}
        </p>
      ) : null}
      <PagedTable query={users} headings={[t('admin.name'), t('admin.email'), t('admin.active'), t('admin.role')]} page={page} pageSize={PAGE_SIZE} onPage={setPage}>
        {(user) => (
          <tr key={user.id}>
            <td>
              {fullName(user)}
              <br />
              <small>{formatDate(user.createdAt, i18n.language)}</small>
            </td>
            <td>{user.email}</td>
            <td>{t(user.active ? 'admin.yes' : 'admin.no')}</td>
            <td>
              <select
                aria-label={t('admin.roleOf', { name: fullName(user) })}
                value={user.role}
                disabled={changeRole.isPending}
                onChange={(e) => changeRole.mutate({ user, role: e.target.value as Role })}
              >
                {ROLES.map((role) => (
                  <option key={role} value={role}>
                    {t(`admin.roles.${role}`)}
                  </option>
                ))}
              </select>
            </td>
          </tr>
        )}
      </PagedTable>
    </section>
  );
}

const fullName = (u: Pick<UserListItem, 'firstName' | 'lastName'>) => `${u.firstName} ${u.lastName}`.trim();
