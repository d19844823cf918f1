/**
 * The one list of flags Debian's chromium runs with, wherever this repository starts it: the capture browser, the
 * browser tests (playwright.config.ts), and the bench's page loads and Lighthouse runs. A downloaded browser cannot be
 * installed on these machines, and the distribution's build needs these to run headless in a container.
 *
 * This file imports nothing and uses only erasable TypeScript, so plain Node.js (bench/*.mjs) imports it as it is.
 * `--headless` is not in it: Playwright adds it itself; the bench adds it where chrome-launcher starts the browser.
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  // Root in a container has no usable sandbox; the capture browser is confined by its own network namespace instead.
  '--no-sandbox',
  '--disable-gpu',
  // QUIC is UDP: everything goes over TCP, where the capture proxy and the test servers see it.
  '--disable-quic',
  '--no-first-run',
  // No calls home (updates, sync, field trials) that would add requests to what is measured or captured.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** What the capture browser adds: it loads pages that strangers chose. */
export const CAPTURE_CHROMIUM_FLAGS: readonly string[] = [
  ...CHROMIUM_FLAGS,
  // /dev/shm is 64 MB in most containers: a large page's renderer would crash there.
  '--disable-dev-shm-usage',
  // Only a part of the guard against WebRTC (which sends UDP around the proxy): the browser also runs where only the
  // proxy is reachable, and WebRTC is removed from every page before its scripts run.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];
