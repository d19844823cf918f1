import { useState, type FormEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { USERS_API_BASE, can, type AccountQueueItem } from '@app/shared';
import { fieldAria, FormField } from '../../components/FormField';
import { PageTitle } from '../../components/PageTitle';
import { request, requestPage } from '../../lib/api';
import { formatDate } from '../../lib/dates';
import { formErrors } from '../../lib/formErrors';
import { useTranslation } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import { AdminFeedback, type Feedback } from './AdminFeedback';
import { ForbiddenNotice } from './ForbiddenNotice';
import { PagedTable, usePaging, type Column } from './PagedTable';
import './admin.css';

const PAGE_SIZE = 50;
const QUEUE_KEY = ['admin', 'accounts'];
const fullName = (u: Pick<AccountQueueItem, 'firstName' | 'lastName'>) => `${u.firstName} ${u.lastName}`.trim();

/**
 * /admin/accounts (admin, super): accounts waiting for approval, those that activated first, with what the person
 * said at sign-up; each is approved (a contributor, told by e-mail) or declined (closed, told). Below, an invitation.
 */
export default function AccountsQueuePage() {
  const { t, i18n } = useTranslation();
  const allowed = can.approveAccounts(useSession());
  const queryClient = useQueryClient();
  const paging = usePaging(PAGE_SIZE);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const queue = useQuery({
    queryKey: [...QUEUE_KEY, paging.page],
    queryFn: ({ signal }) => requestPage<AccountQueueItem>(`${USERS_API_BASE}/pending`, { raw: true, query: { limit: PAGE_SIZE, offset: paging.offset }, signal }),
    placeholderData: keepPreviousData,
    enabled: allowed,
  });
  const decide = useMutation({
    mutationFn: ({ user, verb }: { user: AccountQueueItem; verb: 'approve' | 'decline' }) =>
      request<AccountQueueItem>(`${USERS_API_BASE}/${encodeURIComponent(user.id)}/${verb}`, { method: 'POST', raw: true }),
    onSuccess: (user, { verb }) => {
      setFeedback({ ok: true, text: t(verb === 'approve' ? 'accounts.approved' : 'accounts.declined', { name: fullName(user) }) });
      return queryClient.invalidateQueries({ queryKey: QUEUE_KEY });
    },
    onError: (err) => setFeedback({ ok: false, text: t('accounts.failed', { message: formErrors(err, []).general.join(' ') }) }),
  });

  const title = t('pages.accountsQueue');
  if (!allowed) return <ForbiddenNotice title={title} />;
  const columns: Column<AccountQueueItem>[] = [
    {
      heading: t('accounts.name'),
      cell: (user) => (
        <span>
          {fullName(user)}
          <br />
          <small>{formatDate(user.createdAt, i18n.language)}</small>
        </span>
      ),
    },
    { heading: t('accounts.email'), cell: (user) => user.email, className: 'admin-email' },
    { heading: t('accounts.organisationColumn'), cell: (user) => user.organisation ?? '' },
    { heading: t('accounts.reasonColumn'), cell: (user) => user.reason ?? '' },
    { heading: t('accounts.state'), cell: (user) => t(user.active ? 'accounts.activated' : 'accounts.notActivated') },
    {
      heading: t('accounts.actions'),
      cell: (user) => (
        <span className="admin-actions">
          <button type="button" className="btn" disabled={decide.isPending} aria-label={t('accounts.approveWho', { name: fullName(user) })} onClick={() => decide.mutate({ user, verb: 'approve' })}>
            {t('accounts.approve')}
          </button>{' '}
          <button type="button" className="btn btn-secondary" disabled={decide.isPending} aria-label={t('accounts.declineWho', { name: fullName(user) })} onClick={() => decide.mutate({ user, verb: 'decline' })}>
            {t('accounts.decline')}
          </button>
        </span>
      ),
    },
  ];
  return (
    <section>
      <PageTitle title={title} />
      <AdminFeedback feedback={feedback} testId="accounts-feedback" />
      <PagedTable query={queue} columns={columns} rowKey={(user) => user.id} emptyText={t('accounts.queueEmpty')} paging={paging} />
      <InviteForm />
    </section>
  );
}

const INVITE_FIELDS = ['email', 'firstName', 'lastName'] as const;

/** Invites a person by e-mail (POST /api/users/invite); the server's field errors are shown under their fields. */
function InviteForm() {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const invite = useMutation({
    mutationFn: (values: Record<string, string>) => request<AccountQueueItem>(`${USERS_API_BASE}/invite`, { method: 'POST', body: values, raw: true }),
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const data = new FormData(formElement);
    const values = Object.fromEntries(INVITE_FIELDS.map((f) => [f, String(data.get(f) ?? '')]));
    setErrors({});
    setFeedback(null);
    invite.mutate(values, {
      onSuccess: (user) => {
        formElement.reset();
        setFeedback({ ok: true, text: t('accounts.invited', { email: user.email }) });
      },
      onError: (err) => {
        const split = formErrors(err, INVITE_FIELDS);
        setErrors(split.fields as Record<string, string>);
        if (split.general.length) setFeedback({ ok: false, text: t('accounts.failed', { message: split.general.join(' ') }) });
      },
    });
  };
  const field = (name: (typeof INVITE_FIELDS)[number], label: string, type = 'text') => (
    <FormField id={`invite-${name}`} label={label} error={errors[name]}>
      <input name={name} type={type} {...fieldAria(`invite-${name}`, { error: errors[name] })} />
    </FormField>
  );
  return (
    <form className="account-form invite-form" noValidate onSubmit={onSubmit} aria-labelledby="invite-title">
      <h2 id="invite-title">{t('accounts.inviteTitle')}</h2>
      <p>{t('accounts.inviteText')}</p>
      <AdminFeedback feedback={feedback} testId="invite-feedback" />
      {field('email', t('accounts.email'), 'email')}
      {field('firstName', t('accounts.firstName'))}
      {field('lastName', t('accounts.lastName'))}
      <button type="submit" className="btn" disabled={invite.isPending}>
        {t('accounts.invite')}
      </button>
    </form>
  );
}
