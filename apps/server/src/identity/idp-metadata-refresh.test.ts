import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../test/support/databases';
import { EXTERNAL_IDP, idpEntityDescriptor } from '../../test/support/external-idp';
import { forgeResponse } from '../../test/support/saml-forge';
import { createAccount, startLogin, validResponseOptions } from '../../test/support/sign-in';
import { createTestApp, fixtureKeys, TestClient, type TestApp } from '../../test/support/test-app';
import { ConfigError } from '../config';
import { certBody } from '../platform/keys';
import * as stored from '../store/idp-metadata';
import { refreshIdpMetadata, startupIdp } from './idp-metadata-refresh';

describe.each(testDatabaseKinds)(
  'IdP metadata from a URL, refreshed, its last good copy kept, on %s',
  (kind) => {
    let server: Server;
    let url: string;
    /** What the IdP's metadata URL answers now. */
    let answer: { status: number; body: string };
    let t: TestApp;
    const lines: string[] = [];
    const log = {
      info: (_fields: object, message: string) => lines.push(`info ${message}`),
      warn: (_fields: object, message: string) => lines.push(`warn ${message}`),
    };

    beforeAll(async () => {
      answer = { status: 200, body: idpEntityDescriptor(fixtureKeys('idp').certPem) };
      server = createServer((_request, response) =>
        response
          .writeHead(answer.status, { 'content-type': 'application/samlmetadata+xml' })
          .end(answer.body),
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/saml2/idp/metadata.php`;
      t = await createTestApp(kind, { IDP: 'external', IDP_METADATA: url });
      await createAccount(t, { username: 'rollvendor' });
    });
    afterAll(async () => {
      await t?.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    async function signInWith(keys: ReturnType<typeof fixtureKeys>): Promise<string | undefined> {
      const client = new TestClient(t.app);
      await client.fetchCsrf();
      const requestId = await startLogin(t, client);
      const res = await client.postForm('/api/saml/acs', {
        SAMLResponse: forgeResponse({ ...validResponseOptions(t, 'rollvendor', requestId), keys }),
        RelayState: '/welcome',
      });
      return res.headers.location;
    }

    it('follows a certificate roll-over without a restart, and keeps the new copy', async () => {
      expect(await signInWith(fixtureKeys('idp'))).toBe('/welcome');
      expect(await signInWith(fixtureKeys('other'))).toBe('/auth-failure');
      answer = { status: 200, body: idpEntityDescriptor(fixtureKeys('other').certPem) };
      expect(await refreshIdpMetadata(t.ctx, log)).toBe(true);
      expect(t.ctx.idp.signingCerts).toEqual([certBody(fixtureKeys('other').certPem)]);
      expect(lines.at(-1)).toBe('info IDP_METADATA changed: the new metadata is in use');
      expect(await signInWith(fixtureKeys('other'))).toBe('/welcome');
      expect(await signInWith(fixtureKeys('idp'))).toBe('/auth-failure');
      expect((await stored.readLastGood(t.ctx.db, url))?.xml).toBe(answer.body);
    });

    it('keeps the metadata in use and its last good copy while the IdP is down or answers nonsense', async () => {
      const before = structuredClone(t.ctx.idp);
      const kept = await stored.readLastGood(t.ctx.db, url);
      for (const broken of [
        { status: 503, body: 'down for maintenance' },
        { status: 200, body: '<html><body>Sign in</body></html>' },
      ]) {
        answer = broken;
        expect(await refreshIdpMetadata(t.ctx, log)).toBe(false);
        expect(t.ctx.idp).toEqual(before);
        expect(await stored.readLastGood(t.ctx.db, url)).toEqual(kept);
      }
      expect(lines.at(-2)).toBe(
        `warn IDP_METADATA: ${url} answered HTTP 503 Service Unavailable; keeping the IdP metadata in use`,
      );
    });

    it('starts with the last good copy when the URL cannot be read, and only without one refuses', async () => {
      const down = new ConfigError(`IDP_METADATA: cannot fetch ${url}: connection refused by 127.0.0.1:1`);
      const idp = await startupIdp(t.ctx.db, url, undefined, down, new Date(), log);
      expect(idp).toMatchObject({
        entityId: EXTERNAL_IDP.entityId,
        signingCerts: [certBody(fixtureKeys('other').certPem)],
      });
      expect(lines.at(-1)).toMatch(
        /^warn IDP_METADATA: cannot fetch .*; starting with the last good copy, fetched at /,
      );
      await expect(
        startupIdp(t.ctx.db, `${url}?never-fetched`, undefined, down, new Date(), log),
      ).rejects.toBe(down);
    });
  },
);
