import { useEffect, useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { useParams } from 'react-router';
import { USERS_API_BASE } from '@app/shared';
import { request } from '../../lib/api';
import { Loading } from '../../components/Status';
import { SignInForm } from './SignInForm';

/**
 * A token is single-use, so the activation call is made once per token even when React runs effects twice
 * (development StrictMode) or the page re-renders.
 */
const activations = new Map<string, Promise<unknown>>();
function activate(token: string) {
  let call = activations.get(token);
  if (!call) {
    call = request(`${USERS_API_BASE}/user/activation/${encodeURIComponent(token)}`, { method: 'POST', raw: true });
    activations.set(token, call);
  }
  return call;
}

/** /user/activation/{token}: activates the account, then shows the sign-in form under the activation heading. */
export default function ActivationPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const [state, setState] = useState<{ status: 'pending' | 'done' } | { status: 'failed'; message: string }>({ status: 'pending' });

  useEffect(() => {
    let live = true;
    activate(token).then(
      () => live && setState({ status: 'done' }),
      (err: unknown) => live && setState({ status: 'failed', message: err instanceof Error ? err.message : String(err) }),
    );
    return () => {
      live = false;
    };
  }, [token]);

  if (state.status === 'pending') return <Loading label={t('account.activating')} />;
  if (state.status === 'failed') {
    return (
      <>
        <p className="error-notice" role="alert">
          {t('account.activationFailed', { message: state.message })}
        </p>
        <SignInForm title={t('pages.signin')} />
      </>
    );
  }
  return <SignInForm title={t('pages.activated')} />;
}
