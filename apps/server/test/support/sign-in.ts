import { sql } from 'kysely';
import { newTotpSecret } from '../../src/identity/mfa/totp';
import { hashPassword } from '../../src/identity/passwords';
import { spEndpoints } from '../../src/identity/saml-sp';
import { authnRequestIdFromUrl, forgeResponse, type ForgeOptions } from './saml-forge';
import { fixtureKeys, TestClient, type TestApp } from './test-app';

/** Starts a sign-in as the browser would and returns the AuthnRequest id the portal issued. */
export async function startLogin(t: TestApp, client: TestClient, next = '/welcome'): Promise<string> {
  const res = await client.get(`/api/saml/login/standard?next=${encodeURIComponent(next)}`);
  if (res.statusCode !== 302) throw new Error(`login answered ${res.statusCode}`);
  return authnRequestIdFromUrl(String(res.headers.location));
}

/** Options for a response the trusted test IdP would send for this app. */
export function validResponseOptions(t: TestApp, nameId: string, inResponseTo: string): ForgeOptions {
  const { entityId, acsUrl } = spEndpoints(t.ctx.config.publicUrl);
  return {
    issuer: t.ctx.idp.entityId,
    acsUrl,
    audience: entityId,
    nameId,
    inResponseTo,
    keys: fixtureKeys('idp'),
  };
}

/** Signs a client in as `username` through the real login and ACS endpoints. */
export async function signInAs(
  t: TestApp,
  username: string,
  client = new TestClient(t.app),
): Promise<TestClient> {
  await client.fetchCsrf();
  const requestId = await startLogin(t, client);
  const res = await client.postForm('/api/saml/acs', {
    SAMLResponse: forgeResponse(validResponseOptions(t, username, requestId)),
    RelayState: '/welcome',
  });
  if (res.statusCode !== 303 || res.headers.location !== '/welcome') {
    throw new Error(`sign-in as ${username} failed: ${res.statusCode} ${String(res.headers.location)}`);
  }
  await client.fetchCsrf();
  return client;
}

/** The password `createAccount` gives every test account. */
export const TEST_PASSWORD = 'Correct-Horse-9-Battery';

let cachedHash: Promise<string> | undefined;

/** Inserts an account (active vendor unless told otherwise) and returns its id. */
export async function createAccount(
  t: TestApp,
  fields: {
    username: string;
    type?: 'vendor' | 'employee';
    isEmployeeBrm?: boolean;
    isAdmin?: boolean;
    status?: 'active' | 'pendingActivation' | 'disabled' | 'terminated';
  },
): Promise<string> {
  cachedHash ??= hashPassword(TEST_PASSWORD);
  const { id } = await t.ctx.db
    .insertInto('accounts')
    .values({
      username: fields.username,
      given_name: fields.username.slice(0, 1).toUpperCase() + fields.username.slice(1),
      family_name: 'Tester',
      email: `${fields.username}@example.test`,
      type: fields.type ?? 'vendor',
      is_employee_brm: fields.isEmployeeBrm ?? false,
      is_admin: fields.isAdmin ?? false,
      status: fields.status ?? 'active',
      password_hash: await cachedHash,
      // Created by the app's clock: a vendor made under a test clock is not already idle (§6.3).
      created_at: t.ctx.clock.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Enrols a confirmed authenticator app (TOTP) for `accountId`; returns its secret. */
export async function enrollTotpDevice(t: TestApp, accountId: string, nickname = 'Phone'): Promise<string> {
  const secret = newTotpSecret();
  await t.ctx.db
    .insertInto('mfa_devices')
    .values({
      account_id: accountId,
      nickname,
      secret_encrypted: t.ctx.encryptor.encrypt(secret),
      last_used_step: null,
      confirmed_at: sql<Date>`now()`,
    })
    .execute();
  return secret;
}
