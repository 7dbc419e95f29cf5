// Helpers for the built-in IdP's tests: a samlify SP that signs AuthnRequests like the portal's
// SP, the steps of a sign-in through the IdP's HTML forms, and reading those pages.
import { generate } from 'otplib';
import * as samlify from 'samlify';
import type { AppContext } from '../../src/platform/app-context';
import { builtinIdpMetadata } from '../../src/idp/metadata';
import { samlUrls } from '../../src/idp/saml-entities';
import type { AccountStatus } from '../../src/platform/db-schema';
import type { KeyPair } from '../../src/platform/keys';
import { createAccount, TEST_PASSWORD } from './sign-in';
import { fixtureKeys, TestClient, type TestApp } from './test-app';

/** The password `createAccount` (sign-in.ts) gives every account. */
export const PASSWORD = TEST_PASSWORD;

let counter = 0;

/** An account (active vendor unless told otherwise) with a username of its own. */
export async function createIdpAccount(
  t: TestApp,
  status?: AccountStatus,
): Promise<{ id: string; username: string }> {
  counter += 1;
  const username = `vendor${counter}${Date.now() % 100000}`;
  return { id: await createAccount(t, { username, status }), username };
}

/** A signed HTTP-Redirect SSO path, as the portal's SP would send the browser to it. */
export function ssoPath(
  ctx: AppContext,
  options: { key?: KeyPair; acsUrl?: string; relayState?: string } = {},
): { path: string; requestId: string } {
  const urls = samlUrls(ctx);
  const key = options.key ?? fixtureKeys('sp');
  const sp = samlify.ServiceProvider({
    entityID: urls.spEntityId,
    privateKey: key.privateKeyPem,
    signingCert: key.certPem,
    authnRequestsSigned: true,
    requestSignatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    assertionConsumerService: [
      { Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', Location: options.acsUrl ?? urls.acsUrl },
    ],
  });
  const idp = samlify.IdentityProvider({ metadata: builtinIdpMetadata(ctx) });
  const request = sp.createLoginRequest(idp, 'redirect', { relayState: options.relayState });
  const url = new URL(request.context);
  return { path: `${url.pathname}${url.search}`, requestId: request.id };
}

/** The value of a named hidden or text input in a page. */
export function inputValue(page: string, name: string): string | undefined {
  const match = new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`, 's').exec(page);
  return match?.[1]?.replace(/&amp;/g, '&').replace(/&quot;/g, '"');
}

export function csrfOf(page: string): string {
  const token = inputValue(page, 'csrfToken');
  if (!token) throw new Error('no CSRF field on the page');
  return token;
}

/** The TOTP seed as the enrolment page shows it, without the grouping spaces. */
export function secretOf(page: string): string {
  const match = /id="totp-secret"><code>(.*?)<\/code>/s.exec(page);
  if (!match?.[1]) throw new Error('no secret on the page');
  return match[1].replace(/<[^>]+>|\s/g, '');
}

/** The code an authenticator shows `steps` periods away from now. */
export function totpCode(secret: string, steps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}

/** Starts a sign-in from a signed AuthnRequest, as far as the login page. */
export async function startSignIn(
  t: TestApp,
  relayState?: string,
  remoteAddress?: string,
): Promise<{ client: TestClient; requestId: string; loginPage: string }> {
  const client = new TestClient(t.app);
  client.remoteAddress = remoteAddress;
  const { path, requestId } = ssoPath(t.ctx, { relayState });
  await client.get(path);
  const login = await client.get('/idp/login');
  return { client, requestId, loginPage: login.body };
}

/** Starts a sign-in and passes the password step; the MFA page it then shows. */
export async function passPasswordStep(
  t: TestApp,
  username: string,
  relayState?: string,
): Promise<{ client: TestClient; requestId: string; mfaPage: string }> {
  const { client, requestId, loginPage } = await startSignIn(t, relayState);
  const res = await client.postForm('/idp/login', {
    csrfToken: csrfOf(loginPage),
    username,
    password: PASSWORD,
  });
  if (res.statusCode !== 303) throw new Error(`password step failed: ${res.statusCode}`);
  const mfa = await client.get('/idp/mfa');
  return { client, requestId, mfaPage: mfa.body };
}
