import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { ROLES, USERS_API_BASE, can, type Role, type UserListItem } from '@app/shared';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { request, requestPage } from '../../lib/api';
import { formatDate } from '../../lib/dates';
import { formErrors } from '../../lib/formErrors';
import { useSession } from '../../lib/session';
import { PageTitle } from '../../components/PageTitle';
import { ForbiddenNotice } from './ForbiddenNotice';
import { PagedTable } from './PagedTable';
import './admin.css';

const PAGE_SIZE = 50;

/** A role change waiting for its answer; a super lowering their own role is asked a second time. */
interface RoleChange {
  user: UserListItem;
  role: Role;
  step: 1 | 2;
}

const rank = (role: Role) => ROLES.indexOf(role);
const fullName = (u: Pick<UserListItem, 'firstName' | 'lastName'>) => `${u.firstName} ${u.lastName}`.trim();

/**
 * /admin/users (super): every account, with its role changeable (PUT /api/users/{id}/role). Each change is confirmed
 * in a dialog naming the person, the old and the new role; lowering one's own role asks twice. The server refuses to
 * remove the last super (an error keyed by `role`), which is shown as it says.
 */
export default function UsersPage() {
  const { t, i18n } = useTranslation();
  const me = useSession();
  const allowed = can.manageUsers(me);
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [feedback, setFeedback] = useState<{ ok: boolean; text: string } | null>(null);
  const [change, setChange] = useState<RoleChange | null>(null);
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
    onError: (err) => {
      const split = formErrors(err, ['role']);
      setFeedback({ ok: false, text: split.fields.role ?? t('editor.failed', { action: t('admin.role'), message: split.general.join(' ') }) });
    },
  });

  const title = t('pages.users');
  if (!allowed) return <ForbiddenNotice title={title} />;

  const lowersOwnRole = (c: RoleChange) => c.user.id === me?.id && rank(c.role) < rank(c.user.role);
  const confirm = () => {
    if (!change) return;
    if (change.step === 1 && lowersOwnRole(change)) {
      setChange({ ...change, step: 2 });
      return;
    }
    setChange(null);
    setFeedback(null);
    changeRole.mutate({ user: change.user, role: change.role });
  };
  const names = change && { name: fullName(change.user), from: t(`admin.roles.${change.user.role}`), to: t(`admin.roles.${change.role}`) };

  return (
    <section>
      <PageTitle title={title} />
      {feedback ? (
        <p className={feedback.ok ? 'admin-ok' : 'field-error'} role={feedback.ok ? 'status' : 'alert'} data-testid="role-feedback">
          {feedback.text}
        </p>
      ) : null}
      <PagedTable
        query={users}
        headings={[t('admin.name'), t('admin.email'), t('admin.active'), t('admin.role')]}
        page={page}
        pageSize={PAGE_SIZE}
        onPage={setPage}
        stacked
      >
        {(user) => (
          <tr key={user.id}>
            <td data-label={t('admin.name')}>
              <span>
                {fullName(user)}
                <br />
                <small>{formatDate(user.createdAt, i18n.language)}</small>
              </span>
            </td>
            <td data-label={t('admin.email')} className="admin-email">
              {user.email}
            </td>
            <td data-label={t('admin.active')}>{t(user.active ? 'admin.yes' : 'admin.no')}</td>
            <td data-label={t('admin.role')}>
              <select
                aria-label={t('admin.roleOf', { name: fullName(user) })}
                value={user.role}
                disabled={changeRole.isPending}
                onChange={(e) => setChange({ user, role: e.target.value as Role, step: 1 })}
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
      {change && names ? (
        <ConfirmDialog
          key={change.step}
          title={change.step === 1 ? t('admin.roleConfirmTitle') : t('admin.roleSelfTitle')}
          confirmLabel={change.step === 1 ? t('admin.roleConfirm', names) : t('admin.roleSelfConfirm', names)}
          cancelLabel={t('common.cancel')}
          onConfirm={confirm}
          onCancel={() => setChange(null)}
          danger={lowersOwnRole(change)}
        >
          <p>{change.user.id === me?.id ? t('admin.roleConfirmSelf', names) : t('admin.roleConfirmText', names)}</p>
          {change.step === 2 ? <p>{t('admin.roleSelfWarning', names)}</p> : null}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
