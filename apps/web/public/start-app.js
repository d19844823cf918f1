// Starts a page the server rendered, once the page has been painted: on a slow connection the text and its styles
// arrive and show first, and the scripts follow instead of competing with them.
// A signed-out reader in English gets only the page's islands (apps/web/src/islands/start.tsx: its menu, copy
// buttons, filters... a few KB), the page being what the server rendered for them; anyone else (an editor, whose
// page shows editors' controls, or a reader of another language) gets the app, which draws the page for them.
// The server inlines this file into the pages it renders, after <script id="app-code"> listing both sets of scripts
// (entry first); pages it does not render load the app directly.
(function () {
  var code = JSON.parse(document.getElementById('app-code').textContent);
  function add(tag, attributes) {
    var element = document.createElement(tag);
    element.crossOrigin = '';
    for (var name in attributes) element[name] = attributes[name];
    document.head.appendChild(element);
  }
  function load(list) {
    for (var i = 1; i < list.length; i++) add('link', { rel: 'modulepreload', href: list[i] });
    add('script', { type: 'module', src: list[0] });
  }
  function stored(key) {
    try {
      return localStorage.getItem(key);
    } catch (error) {
      void error;
      return null;
    }
  }
  var appStarted = false;
  // The islands start the app when the reader asks for what only it does (another language).
  window.startApp = function () {
    if (appStarted) return;
    appStarted = true;
    load(code.app);
  };
  function start() {
    var lang = stored('lang');
    var reader = code.islands.length > 0 && !stored('token') && (!lang || lang === 'en');
    if (reader) load(code.islands);
    else window.startApp();
  }
  // Once the browser reports its first contentful paint; a hidden tab paints nothing, and a browser without paint
  // timing starts when the page has loaded.
  var started = false;
  function startOnce() {
    if (started) return;
    started = true;
    start();
  }
  // The service worker that keeps opened public pages for reading offline (apps/web/sw), registered once the page has
  // loaded so it takes nothing from the first paint; not on a mirror opened from file://, where there is none.
  if ('serviceWorker' in navigator && location.protocol !== 'file:') {
    window.addEventListener('load', function () {
      navigator.serviceWorker.register('/sw.js').catch(function () {});
    });
  }
  var types = (window.PerformanceObserver && PerformanceObserver.supportedEntryTypes) || [];
  if (document.hidden || types.indexOf('paint') < 0) {
    if (document.hidden || document.readyState === 'complete') startOnce();
    else window.addEventListener('load', startOnce);
  } else {
    new PerformanceObserver(function (entries, observer) {
      if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      setTimeout(startOnce, 0);
    }).observe({ type: 'paint', buffered: true });
    document.addEventListener('visibilitychange', startOnce);
  }
})();
