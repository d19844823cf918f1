import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import './lib/i18n';
import './styles.css';

/** Plain http on a non-localhost origin goes to https (spec §2 Frame). */
function redirectToHttps(): boolean {
  const { protocol, hostname, href } = window.location;
  const local = hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]' || hostname.endsWith('.localhost');
  if (protocol === 'http:' && !local) {
    window.location.replace(href.replace(/^http:/, 'https:'));
    return true;
  }
  return false;
}

if (!redirectToHttps()) {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
