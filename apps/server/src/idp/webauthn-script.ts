import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The IdP pages' WebAuthn helper, served as /idp/assets/webauthn.js (the CSP allows no inline
 * script): @simplewebauthn/browser's own browser bundle, then the few lines that drive the
 * forms marked `data-webauthn`: on submit, fetch the options (POST with the CSRF token), run the
 * browser's ceremony, put its JSON answer in the form's `credential` field and submit the form.
 * A cancelled or failed ceremony shows the page's `webauthn-error` alert instead. The forms'
 * buttons are rendered disabled; this enables each once it drives its form.
 */
const glue = `
(function () {
  function setup(form) {
    var mode = form.getAttribute('data-webauthn');
    var alertBox = document.getElementById('webauthn-error');
    var button = form.querySelector('button[type="submit"]');
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      if (alertBox) alertBox.hidden = true;
      var csrf = form.querySelector('input[name="csrfToken"]').value;
      fetch(form.getAttribute('data-options'), {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ csrfToken: csrf })
      })
        .then(function (res) {
          if (!res.ok) throw new Error('options ' + res.status);
          return res.json();
        })
        .then(function (body) {
          var lib = window.SimpleWebAuthnBrowser;
          return mode === 'register'
            ? lib.startRegistration({ optionsJSON: body.options })
            : lib.startAuthentication({ optionsJSON: body.options });
        })
        .then(function (answer) {
          form.querySelector('input[name="credential"]').value = JSON.stringify(answer);
          form.submit();
        })
        .catch(function () {
          if (alertBox) {
            alertBox.hidden = false;
            alertBox.focus();
          }
        });
    });
    // Rendered disabled: a click before this line would post the form without a credential.
    if (button) button.disabled = false;
  }
  document.addEventListener('DOMContentLoaded', function () {
    var forms = document.querySelectorAll('form[data-webauthn]');
    for (var i = 0; i < forms.length; i += 1) setup(forms[i]);
  });
})();
`;

let cached: string | undefined;

/** The helper's text, read once from the installed @simplewebauthn/browser package. */
export function webauthnJs(): string {
  if (cached === undefined) {
    const require = createRequire(import.meta.url);
    const entry = require.resolve('@simplewebauthn/browser');
    const bundle = readFileSync(join(dirname(entry), '..', 'dist', 'bundle', 'index.umd.min.js'), 'utf8');
    cached = `${bundle}\n${glue}`;
  }
  return cached;
}
