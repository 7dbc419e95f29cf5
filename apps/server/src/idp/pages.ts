import { html } from '../http/html';
import { errorAlert, renderPage } from './layout';

interface Common {
  hospitalName: string;
  csrfToken: string;
  error?: string | null;
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
    body: html`<p>
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
        <button type="submit" class="btn btn-primary w-100">Confirm</button>
      </form>`,
  });
}

/** Later sign-ins: a passcode from the enrolled authenticator. */
export function passcodePage(p: Common): string {
  return renderPage({
    hospitalName: p.hospitalName,
    heading: 'Verify your identity',
    body: html`${errorAlert(p.error)}
      <form method="post" action="/idp/mfa">
        <input type="hidden" name="csrfToken" value="${p.csrfToken}" />
        ${passcodeField(p.error, 'Enter the 6-digit passcode from your authenticator app')}
        <button type="submit" class="btn btn-primary w-100">Verify</button>
      </form>`,
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
}): string {
  return renderPage({
    hospitalName: p.hospitalName,
    heading: 'Signing you in',
    scripts: ['/idp/assets/auto-post.js'],
    body: html`<p>You are signed in. Continue to PRA Portal.</p>
      <form method="post" action="${p.acsUrl}" id="saml-post-form">
        <input type="hidden" name="SAMLResponse" value="${p.samlResponse}" />
        ${p.relayState === null ? html`` : html`<input type="hidden" name="RelayState" value="${p.relayState}" />`}
        <button type="submit" class="btn btn-primary w-100">Continue</button>
      </form>`,
  });
}
