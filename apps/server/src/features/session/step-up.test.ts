import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { authnRequestIdFromUrl, forgeResponse } from '../../../test/support/saml-forge';
import { createAccount, startLogin, validResponseOptions } from '../../../test/support/sign-in';
import { createTestApp, TestClient, type TestApp } from '../../../test/support/test-app';
import { addOrganization, auditActions } from '../../../test/support/world';
import { TestClock } from '../../platform/clock';
import { AUTHN_CONTEXT_FAILURE_PAGE } from './sign-in';

const requestXml = (location: string) =>
  inflateRawSync(Buffer.from(new URL(location).searchParams.get('SAMLRequest') ?? '', 'base64')).toString(
    'utf8',
  );

describe.each(testDatabaseKinds)('the SP’s step-up to a phishing-resistant class on %s', (kind) => {
  let t: TestApp;
  // What the built-in IdP writes for a key (the default setting) and for an app or push.
  const PHISHING_RESISTANT_CLASS = 'phr';
  const REFEDS_MFA = 'https://refeds.org/profile/mfa';
  const clock = new TestClock();
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock });
    const high = await addOrganization(t, 'Step-up Labs');
    await t.ctx.db.updateTable('organizations').set({ risk_tier: 'high' }).where('id', '=', high).execute();
    const standard = await addOrganization(t, 'Plain Imaging');
    for (const [name, org] of [
      ['keyed', high],
      ['fresh', high],
      ['plain', standard],
    ] as const) {
      const id = await createAccount(t, { username: `su${name}` });
      ids[name] = id;
      await t.ctx.db
        .insertInto('role_grants')
        .values({
          account_id: id,
          organization_id: org,
          expires_at: new Date(clock.now().getTime() + 90 * 86_400_000),
        })
        .execute();
    }
    await t.ctx.db
      .insertInto('webauthn_credentials')
      .values({
        account_id: ids.keyed!,
        credential_id: 'step-up-cred',
        public_key: 'pk',
        device_type: 'singleDevice',
        backed_up: false,
        aaguid: '00000000-0000-0000-0000-000000000000',
        nickname: 'Blue key',
        created_at: clock.now(),
      })
      .execute();
  });
  afterAll(async () => t?.close());

  async function answer(client: TestClient, username: string, requestId: string, classRef: string) {
    return client.postForm('/api/saml/acs', {
      SAMLResponse: forgeResponse({
        ...validResponseOptions(t, username, requestId),
        authnContextClassRef: classRef,
      }),
      RelayState: '/welcome',
    });
  }

  it('asks once more with ForceAuthn and the phishing-resistant class, then refuses at /auth-failure, audited', async () => {
    const client = new TestClient(t.app);
    await client.fetchCsrf();
    const first = await answer(client, 'sukeyed', await startLogin(t, client), REFEDS_MFA);
    expect(first.statusCode).toBe(303);
    const location = String(first.headers.location);
    expect(location.startsWith(t.ctx.idp.ssoUrl)).toBe(true);
    const xml = requestXml(location);
    expect(xml).toContain('ForceAuthn="true"');
    expect(xml).toContain('RequestedAuthnContext');
    expect(xml).toContain(`>${PHISHING_RESISTANT_CLASS}<`);
    expect(first.headers['set-cookie'] ?? '').not.toMatch(/pra_session=[^;]+;.*Max-Age=[1-9]/);

    const second = await answer(client, 'sukeyed', authnRequestIdFromUrl(location), REFEDS_MFA);
    expect(second.statusCode).toBe(303);
    expect(second.headers.location).toBe(AUTHN_CONTEXT_FAILURE_PAGE);
    expect((await client.get('/api/user')).statusCode).toBe(401);
    const steps = (await auditActions(t, 'signin.step-up')).filter((e) => e.target_id === ids.keyed);
    expect(steps.map((e) => e.details.authnContext)).toEqual([REFEDS_MFA]);
    const refused = (await auditActions(t, 'signin.mfa-strength-refused')).filter(
      (e) => e.target_id === ids.keyed,
    );
    expect(refused.map((e) => e.details.reason)).toEqual(['mfaStrength']);
  });

  it('lets the step-up through when the IdP answers with the phishing-resistant class', async () => {
    const client = new TestClient(t.app);
    await client.fetchCsrf();
    const first = await answer(client, 'sukeyed', await startLogin(t, client), REFEDS_MFA);
    const second = await answer(
      client,
      'sukeyed',
      authnRequestIdFromUrl(String(first.headers.location)),
      PHISHING_RESISTANT_CLASS,
    );
    expect(second.headers.location).toBe('/welcome');
    expect((await client.get('/api/user')).statusCode).toBe(200);
  });

  it('accepts MFA for standard tiers and during the grace; after it, the grace account steps up too', async () => {
    for (const username of ['suplain', 'sufresh']) {
      const client = new TestClient(t.app);
      await client.fetchCsrf();
      const res = await answer(client, username, await startLogin(t, client), REFEDS_MFA);
      expect(res.headers.location, username).toBe('/welcome');
    }
    clock.advance(31 * 86_400_000);
    const client = new TestClient(t.app);
    await client.fetchCsrf();
    const late = await answer(client, 'sufresh', await startLogin(t, client), REFEDS_MFA);
    expect(String(late.headers.location).startsWith(t.ctx.idp.ssoUrl)).toBe(true);
    clock.set(new Date());
  });
});
