import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { USERS_API_BASE, paths } from '@app/shared';
import { request } from '../../lib/api';
import { session } from '../../lib/session';

/** Logout: tells the server, removes the token and current user, goes to /signin. */
export default function LogoutPage() {
  const navigate = useNavigate();
  useEffect(() => {
    void request(`${USERS_API_BASE}/signout`, { raw: true }).catch((err: unknown) => console.warn('sign-out call failed', err));
    session.clear();
    void navigate(paths.signin, { replace: true });
  }, [navigate]);
  return null;
}
