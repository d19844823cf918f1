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
import { AdminFeedback, type Feedback } from './AdminFeedback';
import { ForbiddenNotice } from './ForbiddenNotice';
import { PagedTable, usePaging, type Column } from './PagedTable';
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
  const paging = usePaging(PAGE_SIZE);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [change, setChange] = useState<RoleChange | null>(null);
  const users = useQuery({
    queryKey: ['admin', 'users', paging.page],
    queryFn: ({ signal }) =>
      requestPage<UserListItem>(USERS_API_BASE, { raw: true, query: { limit: PAGE_SIZE, offset: paging.offset }, signal }),
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

  return (
    <section>
      <PageTitle title={title} />
      <AdminFeedback feedback={feedback} testId="role-feedback" />
      <PagedTable
        query={users}
        columns={userColumns(t, i18n.language, changeRole.isPending, (user, role) => setChange({ user, role, step: 1 }))}
        rowKey={(user) => user.id}
        paging={paging}
      />
      {change ? <RoleChangeDialog change={change} self={change.user.id === me?.id} lowers={lowersOwnRole(change)} onConfirm={confirm} onCancel={() => setChange(null)} /> : null}
    </section>
  );
}

/** The users table's columns; choosing another role in a row's list asks for the change (`onChoose`). */
function userColumns(
  t: ReturnType<typeof useTranslation>['t'],
  language: string,
  busy: boolean,
  onChoose: (user: UserListItem, role: Role) => void,
): Column<UserListItem>[] {
  return [
    {
      heading: t('admin.name'),
      cell: (user) => (
        <span>
          {fullName(user)}
          <br />
          <small>{formatDate(user.createdAt, language)}</small>
        </span>
      ),
    },
    { heading: t('admin.email'), cell: (user) => user.email, className: 'admin-email' },
    { heading: t('admin.active'), cell: (user) => t(user.active ? 'admin.yes' : 'admin.no') },
    {
      heading: t('admin.role'),
      cell: (user) => (
        <select aria-label={t('admin.roleOf', { name: fullName(user) })} value={user.role} disabled={busy} onChange={(e) => onChoose(user, e.target.value as Role)}>
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {t(`admin.roles.${role}`)}
            </option>
          ))}
        </select>
      ),
    },
  ];
}

/** The dialog confirming a role change, naming the person and both roles; `self` and `lowers`: one's own, lowered. */
function RoleChangeDialog({ change, self, lowers, onConfirm, onCancel }: { change: RoleChange; self: boolean; lowers: boolean; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const names = { name: fullName(change.user), from: t(`admin.roles.${change.user.role}`), to: t(`admin.roles.${change.role}`) };
  return (
    <ConfirmDialog
      key={change.step}
      title={change.step === 1 ? t('admin.roleConfirmTitle') : t('admin.roleSelfTitle')}
      confirmLabel={change.step === 1 ? t('admin.roleConfirm', names) : t('admin.roleSelfConfirm', names)}
      cancelLabel={t('common.cancel')}
      onConfirm={onConfirm}
      onCancel={onCancel}
      danger={lowers}
    >
      <p>{self ? t('admin.roleConfirmSelf', names) : t('admin.roleConfirmText', names)}</p>
      {change.step === 2 ? <p>{t('admin.roleSelfWarning', names)}</p> : null}
    </ConfirmDialog>
  );
}
