import { useLocation } from 'react-router';

/** What the screen a visitor came from says about why they are here (navigate(to, { state: { notice } })). */
export function RouteNotice() {
  const location = useLocation();
  const notice = (location.state as { notice?: unknown } | null)?.notice;
  if (typeof notice !== 'string' || !notice) return null;
  return (
    <p className="route-notice" role="status" data-testid="route-notice">
      {notice}
    </p>
  );
}
