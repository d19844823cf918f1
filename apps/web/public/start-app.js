// Starts the app on a page the server rendered, once the page has been painted: on a slow connection the text and
// its styles arrive and show first, and the app's scripts (~75 KB) follow instead of competing with them.
// The server inlines this file into the pages it renders, after <script id="app-code"> listing the scripts (entry
// first); pages it does not render load the app directly.
(function () {
  var list = JSON.parse(document.getElementById('app-code').textContent);
  function add(tag, attributes) {
    var element = document.createElement(tag);
    element.crossOrigin = '';
    for (var name in attributes) element[name] = attributes[name];
    document.head.appendChild(element);
  }
  function start() {
    for (var i = 1; i < list.length; i++) add('link', { rel: 'modulepreload', href: list[i] });
    add('script', { type: 'module', src: list[0] });
  }
  // Once the browser reports its first contentful paint; a hidden tab paints nothing, and a browser without paint
  // timing starts the app when the page has loaded.
  var started = false;
  function startOnce() {
    if (started) return;
    started = true;
    start();
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
