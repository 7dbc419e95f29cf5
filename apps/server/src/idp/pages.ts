import { html, type Html } from '../platform/html';
import { errorAlert, renderPage } from './layout';

interface Common {
  hospitalName: string;
  csrfToken: string;
  error?: string | null;
  /** The security key or passkey section (webauthn-pages.ts), first on the page. */
  keySection?: Html;
}

function describedBy(error: string | null | undefined) {
  return error ? html` aria-describedby="form-error" aria-invalid="true"` : html``;
}

/** Username and password: the first step of a sign-in. */
export function loginPage(p: Common & { username?: string }): string {
  return renderPage({
    hospitalName: p.hospitalName,
    heading: 'Sign in to PRA Portal',
    body: html`<p class="text-body-secondary">${p.hospitalName} Privileged Remote Access</p>
      ${errorAlert(p.error)}
      <form method="post" action="/idp/login">
        <input type="hidden" name="csrfToken" value="${p.csrfToken}" />
        <div class="mb-3">
          <label for="username" class="form-label">Username</label>
          <input
            id="username"
            name="username"
            class="form-control"
            autocomplete="username"
            required
            maxlength="255"
            value="${p.username ?? ''}"
            autofocus${describedBy(p.error)}
          />
        </div>
        <div class="mb-3">
          <label for="password" class="form-label">Password</label>
          <input
            id="password"
            name="password"
            type="password"
            class="form-control"
            autocomplete="current-password"
            required
            maxlength="255"
            ${describedBy(p.error)}
          />
        </div>
        <button type="submit" class="btn btn-primary w-100">Sign In</button>
      </form>`,
  });
}

const passcodeField = (error: string | null | undefined, help: string) =>
  html`<div class="mb-3">
    <label for="passcode" class="form-label">Passcode</label>
    <input
      id="passcode"
      name="passcode"
      class="form-control idp-code"
      inputmode="numeric"
      pattern="[0-9]{6}"
      maxlength="6"
      autocomplete="one-time-code"
      required
      aria-describedby="passcode-help${error ? ' form-error' : ''}"
      ${error ? html`aria-invalid="true"` : html``}
    />
    <div id="passcode-help" class="form-text">${help}</div>
  </div>`;

/** The secret's groups, each unbreakable, separated by spaces where a line may wrap. */
const secretGroups = (groups: string[]) =>
  groups.map((group, i) => html`${i > 0 ? ' ' : ''}<span class="idp-secret-group">${group}</span>`);

/** First sign-in: add the portal to an authenticator app and confirm it with a first code. */
export function enrolPage(
  p: Common & { qrDataUrl: string; secretGroups: string[]; nickname?: string },
): string {
  return renderPage({
    hospitalName: p.hospitalName,
    heading: 'Set up your authenticator app',
    scripts: p.keySection ? ['/idp/assets/webauthn.js'] : [],
    body: html`${p.keySection ?? html``}
      <p>
        Your account needs multi-factor authentication. Scan this QR code with an authenticator app (for
        example Microsoft Authenticator or Google Authenticator).
      </p>
      <div class="text-center mb-3">
        <img
          src="${p.qrDataUrl}"
          width="220"
          height="220"
          class="idp-qr"
          alt="QR code that adds PRA Portal to your authenticator app"
        />
      </div>
      <p>If you cannot scan it, enter this key in the app instead:</p>
      <p class="idp-secret text-center" id="totp-secret"><code>${secretGroups(p.secretGroups)}</code></p>
      ${errorAlert(p.error)}
      <form method="post" action="/idp/mfa">
        <input type="hidden" name="csrfToken" value="${p.csrfToken}" />
        ${passcodeField(p.error, 'The 6-digit code the app shows now.')}
        <div class="mb-3">
          <label for="nickname" class="form-label">Device nickname</label>
          <input
            id="nickname"
            name="nickname"
            class="form-control"
            maxlength="64"
            required
            value="${p.nickname ?? ''}"
            aria-describedby="nickname-help"
          />
          <div id="nickname-help" class="form-text">
            A name to recognise this device by, such as "Work phone".
          </div>
        </div>
        <div class="form-check mb-3">
          <input class="form-check-input" type="checkbox" id="pairPhone" name="pairPhone" value="on" />
          <label class="form-check-label" for="pairPhone">
            Also pair this phone for push approvals (a second QR code follows)
          </label>
        </div>
        <button type="submit" class="btn btn-primary w-100">Confirm</button>
      </form>`,
  });
}

/** Later sign-ins: a passcode from the enrolled authenticator, or a push to the paired phone. */
export function passcodePage(p: Common & { pushTo?: string | null; passcode?: boolean }): string {
  return renderPage({
    hospitalName: p.hospitalName,
    heading: 'Verify your identity',
    scripts: p.keySection ? ['/idp/assets/webauthn.js'] : [],
    body: html`${errorAlert(p.error)} ${p.keySection ?? html``}
    ${
      p.passcode === false
        ? html``
        : html`<form method="post" action="/idp/mfa">
            <input type="hidden" name="csrfToken" value="${p.csrfToken}" />
            ${passcodeField(p.error, 'Enter the 6-digit passcode from your authenticator app')}
            <button type="submit" class="btn btn-primary w-100">Verify</button>
          </form>`
    }
    ${
      p.pushTo
        ? html`<p class="text-center my-3 text-body-secondary">or</p>
            <form method="post" action="/idp/mfa/push">
              <input type="hidden" name="csrfToken" value="${p.csrfToken}" />
              <p id="push-help" class="form-text">
                Sends a sign-in request to ${p.pushTo}. Approve it on the phone's authenticator page; this
                page waits for the answer.
              </p>
              <button type="submit" class="btn btn-outline-primary w-100" aria-describedby="push-help">
                Send Push
              </button>
            </form>`
        : html``
    }`,
  });
}

/** A dead end with a way back: bad request, expired sign-in, CSRF failure. */
export function messagePage(p: { hospitalName: string; heading: string; message: string }): string {
  return renderPage({
    hospitalName: p.hospitalName,
    heading: p.heading,
    body: html`<p>${p.message}</p>
      <a class="btn btn-primary" href="/">Return to PRA Portal</a>`,
  });
}

/** Hands the signed Response to the SP's ACS; a script file submits it, the button is for no-JS. */
export function postResponsePage(p: {
  hospitalName: string;
  acsUrl: string;
  samlResponse: string;
  relayState: string | null;
  /** Pairing asked for at enrolment: the QR code (and its link) before Continue, no auto-post. */
  pairing?: { qrDataUrl: string; pairingUrl: string } | undefined;
}): string {
  return renderPage({
    hospitalName: p.hospitalName,
    heading: p.pairing ? 'Pair your phone' : 'Signing you in',
    scripts: p.pairing ? [] : ['/idp/assets/auto-post.js'],
    body: html`${
        p.pairing
          ? html`<p>
                Scan this QR code with the phone's camera and open the link: the portal's authenticator page
                opens, where you approve sign-ins and password resets. Keep it like a password.
              </p>
              <div class="text-center mb-3">
                <img
                  src="${p.pairing.qrDataUrl}"
                  width="220"
                  height="220"
                  class="idp-qr"
                  alt="QR code that pairs your phone as your authenticator"
                />
              </div>
              <p class="small">
                Cannot scan it? Open <a href="${p.pairing.pairingUrl}" class="text-break">this link</a> on the
                phone.
              </p>`
          : html``
      }
      <p>You are signed in. Continue to PRA Portal.</p>
      <form method="post" action="${p.acsUrl}" id="saml-post-form">
        <input type="hidden" name="SAMLResponse" value="${p.samlResponse}" />
        ${p.relayState === null ? html`` : html`<input type="hidden" name="RelayState" value="${p.relayState}" />`}
        <button type="submit" class="btn btn-primary w-100">Continue</button>
      </form>`,
  });
}
