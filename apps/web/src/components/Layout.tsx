import { useEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { paths } from '@app/shared';
import { session } from '../lib/session';
import { AdoptLater } from './AdoptLater';
import { Footer } from './Footer';
import { Header } from './Header';
import { StepUpPrompt } from './StepUpPrompt';

/** Header, main area, footer; scroll resets to the top on navigation. */
export function Layout() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  useEffect(() => {
    // At start, an expired token signs the user out and goes to /signin.
    if (session.expireIfNeeded()) void navigate(paths.signin, { replace: true });
  }, [navigate]);
  // Over a server-rendered page, the header, the main area and the footer are adopted in tasks of their own (see
  // AdoptLater), and the parts inside the main area (a list's cards) in tasks after it.
  return (
    <>
      <AdoptLater>
        <Header />
      </AdoptLater>
      <AdoptLater>
        <main id="main" tabIndex={-1}>
          <Outlet />
        </main>
      </AdoptLater>
      <AdoptLater>
        <Footer />
      </AdoptLater>
      <StepUpPrompt />
    </>
  );
}
