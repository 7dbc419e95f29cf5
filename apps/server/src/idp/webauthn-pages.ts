import { html, type Html } from '../platform/html';
import { webauthnMessages } from '../identity/mfa/webauthn';
import type { AppContext } from '../platform/app-context';
import { renderPage } from './layout';

/** The nickname a new key is offered: "Security key added {date}". */
export function defaultKeyNickname(ctx: Pick<AppContext, 'clock'>): string {
  return `Security key added ${ctx.clock.now().toISOString().slice(0, 10)}`;
}

/** The alert the helper script shows when the browser's ceremony is cancelled or fails. */
const ceremonyAlert = html`<div
  class="alert alert-danger"
  role="alert"
  id="webauthn-error"
  tabindex="-1"
  hidden
>
  ${webauthnMessages.cancelled}
</div>`;

// The forms' buttons start disabled: the helper script (webauthn-script.ts) enables them once it
// drives the form. A click before that would post the form without a credential, which the page
// answers as a cancelled ceremony (seen when a slow page's script came after the click).

/** Sign-in: "Use Security Key or Passkey", first on the MFA page of an account that has one. */
export function keySignInSection(csrfToken: string, more: boolean): Html {
  return html`${ceremonyAlert}
    <form
      method="post"
      action="/idp/mfa/webauthn"
      data-webauthn="authenticate"
      data-options="/idp/mfa/webauthn/options"
    >
      <input type="hidden" name="csrfToken" value="${csrfToken}" />
      <input type="hidden" name="credential" value="" />
      <button type="submit" class="btn btn-primary w-100" disabled>Use Security Key or Passkey</button>
    </form>
    ${more ? html`<p class="text-center my-3 text-body-secondary">or</p>` : html``}`;
}

/** Enrolment: a security key or passkey instead of (or after) an authenticator app. */
export function keyEnrolSection(csrfToken: string, nickname: string, heading = true): Html {
  return html`${heading ? html`<h2 class="h5">Use a security key or passkey</h2>` : html``} ${ceremonyAlert}
    <form
      method="post"
      action="/idp/mfa/webauthn/register"
      data-webauthn="register"
      data-options="/idp/mfa/webauthn/register-options"
      class="mb-4"
    >
      <input type="hidden" name="csrfToken" value="${csrfToken}" />
      <input type="hidden" name="credential" value="" />
      <div class="mb-3">
        <label for="key-nickname" class="form-label">Nickname</label>
        <input
          id="key-nickname"
          name="nickname"
          class="form-control"
          maxlength="64"
          required
          value="${nickname}"
          aria-describedby="key-nickname-help"
        />
        <div id="key-nickname-help" class="form-text">A name to recognise this key or passkey by.</div>
      </div>
      <button type="submit" class="btn btn-primary w-100" disabled>Add Security Key or Passkey</button>
    </form>
    ${
      heading
        ? html`<hr class="my-4" />
            <h2 class="h5">Set up an authenticator app</h2>`
        : html``
    }`;
}

/** After a key was enrolled at first sign-in: add another (recommended) or continue. */
export function keyAddedPage(p: {
  hospitalName: string;
  csrfToken: string;
  nickname: string;
  defaultNickname: string;
  error?: string | null;
}): string {
  return renderPage({
    hospitalName: p.hospitalName,
    heading: 'Security key added',
    scripts: ['/idp/assets/webauthn.js'],
    body: html`${p.error ? html`<div class="alert alert-danger" role="alert" id="form-error">${p.error}</div>` : html``}
      <p>"${p.nickname}" can now sign you in.</p>
      <p>Add a second security key or passkey so you can still sign in if you lose this one.</p>
      <h2 class="h5">Add another one (recommended)</h2>
      ${keyEnrolSection(p.csrfToken, p.defaultNickname, false)}
      <form method="post" action="/idp/mfa/continue">
        <input type="hidden" name="csrfToken" value="${p.csrfToken}" />
        <button type="submit" class="btn btn-outline-primary w-100">Continue</button>
      </form>`,
  });
}

/**
 * During the grace after a passcode or push sign-in: "{Org} requires a security key or passkey
 * from {date}." with Add One Now (the key enrolment, then Continue) and Later (on to the portal).
 */
export function graceInterstitialPage(p: {
  hospitalName: string;
  csrfToken: string;
  organizationName: string;
  date: string;
  defaultNickname: string;
  adding?: boolean;
  error?: string | null;
}): string {
  return renderPage({
    hospitalName: p.hospitalName,
    heading: 'Add a security key or passkey',
    scripts: p.adding ? ['/idp/assets/webauthn.js'] : [],
    body: html`${p.error ? html`<div class="alert alert-danger" role="alert" id="form-error">${p.error}</div>` : html``}
      <p id="grace-notice">${p.organizationName} requires a security key or passkey from ${p.date}.</p>
      ${
        p.adding
          ? keyEnrolSection(p.csrfToken, p.defaultNickname, false)
          : html`<form method="post" action="/idp/mfa/grace/add" class="mb-3">
              <input type="hidden" name="csrfToken" value="${p.csrfToken}" />
              <button type="submit" class="btn btn-primary w-100">Add One Now</button>
            </form>`
      }
      <form method="post" action="/idp/mfa/grace/later">
        <input type="hidden" name="csrfToken" value="${p.csrfToken}" />
        <button type="submit" class="btn btn-outline-primary w-100">Later</button>
      </form>`,
  });
}
