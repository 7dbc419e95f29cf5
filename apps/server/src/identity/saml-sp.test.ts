import type querystring from 'node:querystring';
import { SAML } from '@node-saml/node-saml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../test/support/databases';
import { createAccount } from '../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../test/support/test-app';
import { consumeRequestAndRecordAssertion } from '../store/saml';
import { createServiceProvider } from './saml-sp';

/** node-saml's own redirect signing, to compare the portal's against. */
class NodeSamlSigner extends SAML {
  signMessage(message: querystring.ParsedUrlQueryInput): querystring.ParsedUrlQueryInput {
    this.signRequest(message);
    return message;
  }
}

describe.each(testDatabaseKinds)("the SP's request and assertion records on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  let counter = 0;
  async function issueRequest(browserHash = 'browser-a', expiresInMs = 600_000): Promise<string> {
    counter += 1;
    const id = `_req${counter}`;
    await t.ctx.db
      .insertInto('saml_requests')
      .values({ id, browser_hash: browserHash, expires_at: new Date(Date.now() + expiresInMs) })
      .execute();
    return id;
  }
  const sp = (options?: { consumedLater?: boolean; browserHash?: string }) =>
    createServiceProvider(t.ctx.config, t.ctx.db, t.ctx.keys.sp, t.ctx.idp, options);
  const forget = (id: string) => t.ctx.db.deleteFrom('saml_requests').where('id', '=', id).execute();
  const assertionRecorded = async (id: string) =>
    Boolean(
      await t.ctx.db.selectFrom('saml_assertions').select('id').where('id', '=', id).executeTakeFirst(),
    );

  it('signs a login redirect exactly as node-saml signs it', async () => {
    const url = new URL(
      await sp({ browserHash: 'browser-s' }).getAuthorizeUrlAsync('/welcome?a=1 2', undefined, {}),
    );
    const params = Object.fromEntries(url.searchParams);
    const nodeSaml = new NodeSamlSigner({
      callbackUrl: 'https://unused.example/acs',
      entryPoint: t.ctx.idp.ssoUrl,
      issuer: 'unused',
      idpCert: t.ctx.keys.sp.certPem,
      privateKey: t.ctx.keys.sp.privateKeyPem,
      signatureAlgorithm: 'sha256',
    });
    const expected = nodeSaml.signMessage({ SAMLRequest: params.SAMLRequest, RelayState: params.RelayState });
    expect(params.SigAlg).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    expect(params.Signature).toBe(expected.Signature);
    expect(params.RelayState).toBe('/welcome?a=1 2');
  });

  it("answers the app's lookups from the database every time", async () => {
    const id = await issueRequest();
    const cache = sp().cacheProvider;
    expect(await cache.getAsync(id)).toBeTruthy();
    await forget(id);
    expect(await cache.getAsync(id)).toBeNull();
  });

  it('answers a response-validating instance without the database: the consume statement decides', async () => {
    const cache = sp({ consumedLater: true }).cacheProvider;
    expect(await cache.getAsync('_never-issued')).toBeTruthy();
    // ...and the id it let through is refused where it counts.
    expect((await consume('_never-issued', '_assert-deferred')).outcome).toBe('requestNotOurs');
    expect(await assertionRecorded('_assert-deferred')).toBe(false);
  });

  const consume = (requestId: string, assertionId: string, browserHash = 'browser-a', username = '') =>
    consumeRequestAndRecordAssertion(t.ctx.db, {
      requestId,
      browserHash,
      assertionId,
      assertionExpiresAt: new Date(Date.now() + 300_000),
      username,
    });
  const outcomeOf = async (...args: Parameters<typeof consume>) => (await consume(...args)).outcome;

  it('uses a request id up once and records its assertion', async () => {
    const id = await issueRequest();
    expect(await outcomeOf(id, '_assert-once')).toBe('consumed');
    expect(await assertionRecorded('_assert-once')).toBe(true);
    expect(await outcomeOf(id, '_assert-other')).toBe('requestNotOurs');
    expect(await assertionRecorded('_assert-other')).toBe(false);
  });

  it('refuses a request another browser started, an expired one and an unknown one, recording nothing', async () => {
    const other = await issueRequest('browser-b');
    const expired = await issueRequest('browser-a', -1_000);
    expect(await outcomeOf(other, '_assert-x1')).toBe('requestNotOurs');
    expect(await outcomeOf(other, '_assert-x2', '')).toBe('requestNotOurs');
    expect(await outcomeOf(expired, '_assert-x3')).toBe('requestNotOurs');
    expect(await outcomeOf('_never-issued', '_assert-x4')).toBe('requestNotOurs');
    for (const id of ['_assert-x1', '_assert-x2', '_assert-x3', '_assert-x4'])
      expect(await assertionRecorded(id)).toBe(false);
    // The browser that started it can still finish it.
    expect(await outcomeOf(other, '_assert-x1', 'browser-b')).toBe('consumed');
  });

  it('refuses an assertion seen before, even answering a new request, which is used up all the same', async () => {
    expect(await outcomeOf(await issueRequest(), '_assert-replayed')).toBe('consumed');
    const fresh = await issueRequest();
    expect(await outcomeOf(fresh, '_assert-replayed')).toBe('assertionReplayed');
    expect(await outcomeOf(fresh, '_assert-new')).toBe('requestNotOurs');
  });

  it('reads the account the assertion names in the same round trip, whatever the outcome', async () => {
    const accountId = await createAccount(t, { username: 'consume.reader' });
    const found = await consume(await issueRequest(), '_assert-reader', 'browser-a', 'Consume.Reader');
    expect(found.outcome).toBe('consumed');
    expect(found.account?.id).toBe(accountId);
    expect(found.account?.username).toBe('consume.reader');
    expect(found.account?.created_at).toBeInstanceOf(Date);
    const refused = await consume('_never-issued', '_assert-reader-2', 'browser-a', 'consume.reader');
    expect(refused).toMatchObject({ outcome: 'requestNotOurs', account: { id: accountId } });
    const unknown = await consume(await issueRequest(), '_assert-nobody', 'browser-a', 'nobody.here');
    expect(unknown).toEqual({ outcome: 'consumed', account: undefined });
  });
});
