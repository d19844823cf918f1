import { useState } from 'react';
import { Link } from 'react-router';
import { USERS_API_BASE, paths } from '@app/shared';
import { request } from '../../lib/api';
import { useTranslation } from '../../lib/i18n';
import { AuthField } from './AuthField';
import { AccountForm, AccountPage } from './AccountForm';
import { useAccountForm } from './useAccountForm';

interface Enrolment {
  secret: string;
  otpauthUrl: string;
  qrSvg: string;
}

/**
 * /account/two-factor: sets up an authenticator app. The QR code the server drew (SVG) is shown as an image, with the
 * key for typing; a code from the app turns it on, and the ten recovery codes are shown once.
 */
export default function TwoFactorPage() {
  const { t } = useTranslation();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const start = useAccountForm([], () => request<Enrolment>(`${USERS_API_BASE}/2fa/totp`, { method: 'POST', raw: true }));
  const confirm = useAccountForm(['code'], (values) =>
    request<{ recoveryCodes: string[] }>(`${USERS_API_BASE}/2fa/totp/confirm`, { method: 'POST', body: values, raw: true }),
  );
  const required = new URLSearchParams(typeof location === 'undefined' ? '' : location.search).has('required');

  if (recovery) {
    return (
      <AccountPage title={t('accounts.recoveryTitle')}>
        <p role="status">{t('accounts.twoFactorDone')}</p>
        <p>{t('accounts.recoveryText')}</p>
        <ul className="recovery-codes" data-testid="recovery-codes">
          {recovery.map((code) => (
            <li key={code}>
              <code>{code}</code>
            </li>
          ))}
        </ul>
        <Link className="btn" to={paths.dashboard}>
          {t('accounts.continue')}
        </Link>
      </AccountPage>
    );
  }
  return (
    <AccountPage title={t('accounts.twoFactorTitle')}>
      {required ? <p role="alert">{t('accounts.twoFactorRequired')}</p> : null}
      <p>{t('accounts.twoFactorText')}</p>
      {enrolment ? (
        <>
          <img className="totp-qr" width={220} height={220} alt={t('accounts.qrAlt')} src={`data:image/svg+xml;utf8,${encodeURIComponent(enrolment.qrSvg)}`} />
          <p>
            {t('accounts.secretText')} <code data-testid="totp-secret">{enrolment.secret}</code>
          </p>
          <AccountForm form={confirm} submitLabel={t('accounts.confirmTotp')} onSubmit={(e) => void confirm.onSubmit(e, (result) => setRecovery(result.recoveryCodes))}>
            <AuthField name="code" autoComplete="one-time-code" label={t('accounts.code')} error={confirm.errors.code} />
          </AccountForm>
        </>
      ) : (
        <AccountForm form={start} submitLabel={t('accounts.startTotp')} onSubmit={(e) => void start.onSubmit(e, setEnrolment)}>
          {null}
        </AccountForm>
      )}
    </AccountPage>
  );
}
