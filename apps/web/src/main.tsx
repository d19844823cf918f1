import './lib/zodWithoutEval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createQueryClient } from './app/App';
import { restoreState } from './app/prerendered';
import { createRouter, loadScreensFor } from './app/router';
import { httpsRedirectTarget } from './lib/https';
import { startLanguage } from './lib/i18n';
import { nextTask } from './lib/nextTask';
import { adoptServerPage } from './lib/serverPage';
import { session } from './lib/session';
import './styles.css';

/** Plain http on a non-localhost origin goes to https. */
function redirectToHttps(): boolean {
  const target = httpsRedirectTarget(window.location);
  if (target) window.location.replace(target);
  return target !== null;
}

/**
 * Inside the app, the plain links of the parts that also run without it (islands: the menu...) go through the router,
 * as its <Link>s do, instead of loading the page again.
 */
function routePlainLinks(router: ReturnType<typeof createRouter>) {
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element | null)?.closest?.('island-root a[href]');
    if (!(link instanceof HTMLAnchorElement) || link.target || link.hasAttribute('download') || link.origin !== window.location.origin) return;
    event.preventDefault();
    void router.navigate(`${link.pathname}${link.search}${link.hash}`);
  });
}

async function start() {
  const container = document.getElementById('root')!;
  // Running the app's code is one task; taking the page over starts in the next.
  if (container.firstElementChild !== null) await nextTask();
  const queryClient = createQueryClient();
  const signedOut = session.get() === null;
  // The server rendered the page, from what a signed-out visitor may read: an editor's app fetches its own data.
  const prerendered = container.firstElementChild !== null && signedOut && restoreState(queryClient);
  // A server-rendered page is already on screen: the first render must show the same page, so the screen's code is
  // loaded first (its chunks are preloaded by the page).
  await loadScreensFor(window.location.pathname).catch(() => undefined);
  // Starting the app over a page already on screen is split into tasks, so the browser can answer the visitor in
  // between: running the code, making the router, adopting the page.
  if (prerendered) await nextTask();
  const router = createRouter();
  routePlainLinks(router);
  if (prerendered) await nextTask();
  const app = (
    <StrictMode>
      <App queryClient={queryClient} router={router} />
    </StrictMode>
  );
  // The server renders for a signed-out visitor reading English. Such a visitor's app adopts the page as it is
  // (hydration: nothing is redrawn); for anyone else (an editor's controls and data, Amharic) the app redraws it.
  if (prerendered && startLanguage === 'en') await adoptServerPage(container, app);
  else createRoot(container).render(app);
  // From here every control of the page works (a server-rendered page shows them earlier); browser tests wait for it.
  document.documentElement.dataset.app = 'ready';
}

if (!redirectToHttps()) void start();
