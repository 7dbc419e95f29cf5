// Shared helpers for the built-in IdP's tests: a samlify SP that signs AuthnRequests like the
// portal's SP, a cookie-keeping browser for the HTML forms, and account and TOTP helpers.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import * as samlify from 'samlify';
import { fixtureKeys } from '../../test/support/test-app';
import type { AppContext } from '../http/context';
import { hashPassword } from '../identity/passwords';
import type { AccountStatus } from '../platform/db-schema';
import type { KeyPair } from '../platform/keys';
import { builtinIdpMetadata } from './metadata';
import { samlUrls } from './saml-entities';

export const PASSWORD = 'Correct-Horse-Battery-9';

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

/** Keeps the session cookie across requests and posts forms url-encoded, like a browser. */
export class Browser {
  cookie = '';
  constructor(private readonly app: FastifyInstance) {}

  private keep(res: LightMyRequestResponse) {
    const setCookie = res.headers['set-cookie'];
    const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
    if (first) this.cookie = first.split(';')[0] ?? '';
    return res;
  }

  async get(path: string) {
    return this.keep(await this.app.inject({ method: 'GET', url: path, headers: { cookie: this.cookie } }));
  }

  async post(path: string, fields: Record<string, string>) {
    return this.keep(
      await this.app.inject({
        method: 'POST',
        url: path,
        headers: { cookie: this.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(fields).toString(),
      }),
    );
  }
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
  const match = /id="totp-secret"><code>([A-Z2-7 ]+)<\/code>/.exec(page);
  if (!match?.[1]) throw new Error('no secret on the page');
  return match[1].replace(/ /g, '');
}

/** The code an authenticator shows `steps` periods away from now. */
export function totpCode(secret: string, steps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}

let counter = 0;
export async function createAccount(
  ctx: AppContext,
  options: { status?: AccountStatus; username?: string } = {},
): Promise<{ id: string; username: string }> {
  counter += 1;
  const username = options.username ?? `vendor${counter}${Date.now() % 100000}`;
  const row = await ctx.db
    .insertInto('accounts')
    .values({
      username,
      given_name: 'Vera',
      family_name: 'Vendor & Co',
      email: `${username}@vendor.example`,
      type: 'vendor',
      status: options.status ?? 'active',
      password_hash: await hashPassword(PASSWORD),
    })
    .returning(['id', 'username'])
    .executeTakeFirstOrThrow();
  return row;
}

/** Starts a sign-in from a signed AuthnRequest and passes the password step. */
export async function passPasswordStep(
  app: FastifyInstance,
  ctx: AppContext,
  username: string,
  relayState?: string,
): Promise<{ browser: Browser; requestId: string; mfaPage: string }> {
  const browser = new Browser(app);
  const { path, requestId } = ssoPath(ctx, { relayState });
  await browser.get(path);
  const login = await browser.get('/idp/login');
  const res = await browser.post('/idp/login', {
    csrfToken: csrfOf(login.body),
    username,
    password: PASSWORD,
  });
  if (res.statusCode !== 303) throw new Error(`password step failed: ${res.statusCode}`);
  const mfa = await browser.get('/idp/mfa');
  return { browser, requestId, mfaPage: mfa.body };
}
