import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { paths } from '@app/shared';
import { useSession } from '../lib/session';

/** Guarded routes send signed-out users to /signin and bring them back after signing in. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const user = useSession();
  const location = useLocation();
  if (!user) {
    const from = `${location.pathname}${location.search}`;
    return <Navigate to={`${paths.signin}?next=${encodeURIComponent(from)}`} replace />;
  }
  return <>{children}</>;
}
