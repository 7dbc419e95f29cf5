/* global document, requestAnimationFrame -- a script for the browser */
// The prerendered landing page (/home) is drawn before any of the app's code runs; this starts
// loading that code only once the page has been painted, so the first paint never shares the
// network with it. The server puts this script in place of the page's module script and
// modulepreload links, whose addresses it passes in data-src and data-preload
// (apps/server/src/http/web-app.ts, renderHomeHtml).
(function () {
  var tag = document.currentScript;
  var src = tag.getAttribute('data-src');
  var preload = (tag.getAttribute('data-preload') || '').split(' ').filter(Boolean);
  function load() {
    preload.forEach(function (href) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
    });
    var script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = src;
    document.head.appendChild(script);
  }
  // A frame callback runs just before the next paint; a task queued from it runs after.
  requestAnimationFrame(function () {
    setTimeout(load, 0);
  });
})();
