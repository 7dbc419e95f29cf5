import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureKeys } from '../../test/support/test-app';
import { freePort } from '../../test/support/free-port';
import { EXTERNAL_IDP, idpEntityDescriptor, metadataFile } from '../../test/support/external-idp';
import { ConfigError } from '../config';
import { loadIdpMetadata } from './idp-metadata';
import { certBody } from './keys';

const metadata = `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="https://idp.hospital.example/saml">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certBody(fixtureKeys('idp').certPem)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.hospital.example/sso"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;

/** The refusal loadIdpMetadata gives (the test fails if it gives none, or another kind of error). */
async function refusal(source: string, timeoutMs?: number): Promise<string> {
  try {
    await loadIdpMetadata(source, timeoutMs === undefined ? {} : { timeoutMs });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('not refused');
}

describe('IDP_METADATA that cannot be used is refused naming the variable, the source and why', () => {
  let server: Server;
  let base: string;
  let dir: string;
  const hung: ServerResponse[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pra-idp-metadata-'));
    server = createServer((request, response) => {
      const send = (status: number, type: string, body: string) =>
        response.writeHead(status, { 'content-type': type }).end(body);
      if (request.url === '/metadata') send(200, 'application/samlmetadata+xml', metadata);
      else if (request.url === '/html')
        send(200, 'text/html', '<!doctype html><html><body>Sign in</body></html>');
      else if (request.url === '/page') send(200, 'text/html', '<html><body>Sign in</body></html>');
      else if (request.url === '/json') send(200, 'application/json', '{"error":"no"}');
      else if (request.url === '/aggregate')
        send(
          200,
          'application/xml',
          '<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"/>',
        );
      else if (request.url === '/hang') hung.push(response);
      else send(404, 'text/plain', 'not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const response of hung) response.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads good metadata from a URL and from a file', async () => {
    const file = join(dir, 'idp.xml');
    writeFileSync(file, metadata);
    for (const source of [`${base}/metadata`, file]) {
      expect(await loadIdpMetadata(source)).toMatchObject({
        entityId: 'https://idp.hospital.example/saml',
        ssoUrl: 'https://idp.hospital.example/sso',
      });
    }
  });

  it('DNS: a host name that does not resolve', async () => {
    expect(await refusal('https://idp.does-not-exist.invalid/metadata')).toMatch(
      /^IDP_METADATA: cannot fetch https:\/\/idp\.does-not-exist\.invalid\/metadata: DNS: the host name idp\.does-not-exist\.invalid does not resolve \((ENOTFOUND|EAI_AGAIN)\)$/,
    );
  });

  it('a refused connection', async () => {
    const port = await freePort();
    expect(await refusal(`http://127.0.0.1:${port}/metadata`)).toBe(
      `IDP_METADATA: cannot fetch http://127.0.0.1:${port}/metadata: connection refused by 127.0.0.1:${port}`,
    );
  });

  it('no answer in time', async () => {
    expect(await refusal(`${base}/hang`, 300)).toBe(
      `IDP_METADATA: cannot fetch ${base}/hang: no answer within 0.3 s (timeout)`,
    );
  });

  it('an HTTP error status', async () => {
    expect(await refusal(`${base}/gone`)).toBe(`IDP_METADATA: ${base}/gone answered HTTP 404 Not Found`);
  });

  it('an answer that is not XML, or not an IdP entity', async () => {
    expect(await refusal(`${base}/json`)).toBe(`IDP_METADATA: ${base}/json is not XML`);
    expect(await refusal(`${base}/html`)).toBe(`IDP_METADATA: ${base}/html must not contain a DOCTYPE`);
    expect(await refusal(`${base}/page`)).toBe(
      `IDP_METADATA: ${base}/page is not SAML metadata: its root element is <html>, not an md:EntityDescriptor or md:EntitiesDescriptor`,
    );
    expect(await refusal(`${base}/aggregate`)).toBe(
      `IDP_METADATA: ${base}/aggregate is an EntitiesDescriptor of 0 identity providers: set IDP_ENTITY_ID to the entityID of the one to trust`,
    );
    const noSso = join(dir, 'no-sso.xml');
    writeFileSync(noSso, metadata.replace(/<md:SingleSignOnService[^>]*\/>/, ''));
    expect(await refusal(noSso)).toBe(`IDP_METADATA: ${noSso} has no HTTP-Redirect SingleSignOnService`);
  });

  it('a missing file', async () => {
    const missing = join(dir, 'missing.xml');
    expect(await refusal(missing)).toBe(`IDP_METADATA: cannot read ${missing}: no such file`);
  });
});

describe('a federation’s EntitiesDescriptor, with IDP_ENTITY_ID choosing the entity', () => {
  const md = 'xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#"';
  const entity = (id: string, cert: string) =>
    idpEntityDescriptor(cert, { entityId: id, ssoUrl: `${id}/sso`, sloUrl: `${id}/slo` }, '');
  const spOnly =
    '<md:EntityDescriptor entityID="https://sp.example/sp"><md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"/></md:EntityDescriptor>';
  // Federations nest their aggregates, and list SPs beside IdPs.
  const federation =
    `<md:EntitiesDescriptor ${md} Name="urn:federation:test">` +
    entity('https://a.example/idp', fixtureKeys('other').certPem) +
    spOnly +
    `<md:EntitiesDescriptor Name="urn:federation:test:hospitals">${entity('https://hospital.example/idp', fixtureKeys('idp').certPem)}</md:EntitiesDescriptor>` +
    `</md:EntitiesDescriptor>`;
  let file: string;
  beforeAll(() => {
    file = metadataFile(federation);
  });

  it('takes the entity IDP_ENTITY_ID names, with its addresses and certificate', async () => {
    expect(await loadIdpMetadata(file, { entityId: 'https://hospital.example/idp' })).toEqual({
      entityId: 'https://hospital.example/idp',
      ssoUrl: 'https://hospital.example/idp/sso',
      logoutUrl: 'https://hospital.example/idp/slo',
      signingCerts: [certBody(fixtureKeys('idp').certPem)],
    });
  });

  it('refuses an aggregate of several IdPs without IDP_ENTITY_ID, or without the one it names', async () => {
    await expect(loadIdpMetadata(file)).rejects.toThrow(
      `IDP_METADATA: ${file} is an EntitiesDescriptor of 2 identity providers: set IDP_ENTITY_ID to the entityID of the one to trust`,
    );
    await expect(loadIdpMetadata(file, { entityId: 'https://sp.example/sp' })).rejects.toThrow(
      `IDP_METADATA: ${file} is an EntitiesDescriptor of 2 identity provider(s), none of them IDP_ENTITY_ID https://sp.example/sp`,
    );
  });

  it('takes an aggregate’s only IdP, and checks IDP_ENTITY_ID against a single EntityDescriptor', async () => {
    const single = metadataFile(
      `<md:EntitiesDescriptor ${md}>${entity('https://only.example/idp', fixtureKeys('idp').certPem)}${spOnly}</md:EntitiesDescriptor>`,
    );
    expect((await loadIdpMetadata(single)).entityId).toBe('https://only.example/idp');
    const one = metadataFile(idpEntityDescriptor(fixtureKeys('idp').certPem));
    await expect(loadIdpMetadata(one, { entityId: 'https://other.example/idp' })).rejects.toThrow(
      `IDP_METADATA: ${one} describes the entity ${EXTERNAL_IDP.entityId}, not IDP_ENTITY_ID https://other.example/idp`,
    );
  });
});
