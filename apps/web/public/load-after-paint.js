/* global document, requestAnimationFrame -- Loads /home's code once the page is painted: see renderHomeHtml in apps/server/src/http/web-app.ts. */
(function (d, tag) {
  function add(attrs, name) {
    var el = d.createElement(name);
    el.crossOrigin = '';
    Object.assign(el, attrs);
    d.head.appendChild(el);
  }
  function load() {
    (tag.getAttribute('data-preload') || '')
      .split(' ')
      .filter(Boolean)
      .forEach(function (href) {
        add({ rel: 'modulepreload', href: href }, 'link');
      });
    add({ type: 'module', src: tag.getAttribute('data-src') }, 'script');
  }
  // A frame callback runs just before the next paint; a task queued from it runs after.
  requestAnimationFrame(function () {
    setTimeout(load, 0);
  });
})(document, document.currentScript);
