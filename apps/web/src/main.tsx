import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { httpsRedirectTarget } from './lib/https';
import './lib/i18n';
import './styles.css';

/** Plain http on a non-localhost origin goes to https (spec §2 Frame). */
function redirectToHttps(): boolean {
  const target = httpsRedirectTarget(window.location);
  if (target) window.location.replace(target);
  return target !== null;
}

if (!redirectToHttps()) {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
