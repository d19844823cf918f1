import { useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { USERS_API_BASE, paths } from '@app/shared';
import { request } from '../../lib/api';
import { session } from '../../lib/session';
import { RouteNotice } from '../../components/RouteNotice';
import { AuthField, EmailField } from './AuthField';
import { useAccountForm } from './useAccountForm';
import { AccountForm, AccountPage } from './AccountForm';
import { SecondFactorStep } from './SecondFactorStep';

type SigninAnswer = { token: string; enrolRequired?: true } | { twoFactorRequired: true; challenge: string; methods: string[] };

const FIELDS = ['email', 'password'] as const;

/** Only same-site paths are followed after sign-in (no open redirect through ?next=). */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : paths.dashboard;
}

/**
 * The sign-in form (also shown after activation, with its own title). Stores the token and goes back to ?next= or
 * to the dashboard. An account not yet activated gets a button to send the activation link again.
 */
export function SignInForm({ title }: { title: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [resendState, setResendState] = useState<{ email: string; sent: boolean; error: string | null } | null>(null);
  const [challenge, setChallenge] = useState<string | null>(null);
  const form = useAccountForm(FIELDS, (values) =>
    request<SigninAnswer>(`${USERS_API_BASE}/signin`, { method: 'POST', body: values, raw: true }),
  );
  const signedIn = (token: string, enrolRequired = false) => {
    if (!session.signIn(token)) return;
    // A pending account can do nothing a visitor cannot: it is told why rather than sent to the dashboard.
    const waiting = session.get()?.role === 'pending';
    const next = enrolRequired ? `${paths.twoFactor}?required` : waiting ? paths.pending : safeNext(params.get('next'));
    void navigate(next, { replace: true });
  };
  const needsActivation = form.lastError?.status === 403 && form.lastError.body.resend !== undefined;

  const resend = async () => {
    if (!resendState) return;
    try {
      await request(`${USERS_API_BASE}/resend-activation`, { method: 'POST', body: { email: resendState.email }, raw: true });
      setResendState({ ...resendState, sent: true, error: null });
    } catch (err) {
      setResendState({ ...resendState, sent: false, error: err instanceof Error ? err.message : String(err) });
    }
  };

  if (challenge) {
    return (
      <AccountPage title={title}>
        <SecondFactorStep challenge={challenge} onToken={(token) => signedIn(token)} />
      </AccountPage>
    );
  }
  return (
    <AccountPage title={title}>
      <RouteNotice />
      <AccountForm
        form={form}
        submitLabel={t('account.signIn')}
        onSubmit={(e) => {
          const email = String(new FormData(e.currentTarget).get('email') ?? '');
          setResendState({ email, sent: false, error: null });
          void form.onSubmit(e, (answer) => {
            if ('twoFactorRequired' in answer) setChallenge(answer.challenge);
            else signedIn(answer.token, answer.enrolRequired === true);
          });
        }}
      >
        {needsActivation ? (
          <div className="resend">
            <button type="button" className="btn btn-secondary" onClick={() => void resend()}>
              {t('account.resend')}
            </button>
            {resendState?.sent ? <p role="status">{t('account.resent')}</p> : null}
            {resendState?.error ? <p role="alert" className="field-error">{resendState.error}</p> : null}
          </div>
        ) : null}
        <EmailField error={form.errors.email} />
        <AuthField name="password" type="password" autoComplete="current-password" label={t('account.password')} error={form.errors.password} />
      </AccountForm>
      <p>
        <Link to={paths.forgotPassword}>{t('account.forgotLink')}</Link>
      </p>
      <p>
        <Link to={paths.signup}>{t('account.signUpLink')}</Link>
      </p>
    </AccountPage>
  );
}
