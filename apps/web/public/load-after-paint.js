/* global document, requestAnimationFrame -- Loads a drawn page's code once the page is painted (apps/server/src/http/prerender/drawn-pages.ts), and keeps the clicks on its buttons until the app has taken it over (apps/web/src/app/early-clicks.ts). */
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
  // Until the app has the page, its buttons have no handlers: one clicked is marked for the app,
  // which may not have arrived yet (a Log Out signs out, another button is clicked again).
  function mark(event) {
    var target = event.target;
    var button = target && target.closest ? target.closest('#root button') : null;
    if (!button) return;
    button.setAttribute('data-clicked-early', '');
    d.dispatchEvent(new Event('pra:clicked-early'));
  }
  d.addEventListener('click', mark, true);
  d.addEventListener(
    'pra:taken-over',
    function () {
      d.removeEventListener('click', mark, true);
    },
    { once: true },
  );
  // A frame callback runs just before the next paint; a task queued from it runs after.
  requestAnimationFrame(function () {
    setTimeout(load, 0);
  });
})(document, document.currentScript);
