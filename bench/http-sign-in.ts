// Signs in to a running portal over HTTP as a browser would, with an IdP the bench plays: the
// portal trusts it through a metadata file, and the bench signs the SAML response with its key.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as samlify from 'samlify';
import { spEndpoints } from '../apps/server/src/identity/saml-sp';
import { authnRequestIdFromUrl, forgeResponse } from '../apps/server/test/support/saml-forge';
import { fixtureKeys } from '../apps/server/test/support/test-app';

const IDP_ENTITY_ID = 'https://idp.bench.example/saml';

/** Writes the bench IdP's metadata into `dir` and returns the file's path (for IDP_METADATA). */
export function writeBenchIdpMetadata(dir: string): string {
  const idp = samlify.IdentityProvider({
    entityID: IDP_ENTITY_ID,
    signingCert: fixtureKeys('idp').certPem,
    singleSignOnService: [
      { Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: `${IDP_ENTITY_ID}/sso` },
    ],
  });
  const file = join(dir, 'bench-idp-metadata.xml');
  writeFileSync(file, idp.getMetadata());
  return file;
}

/** A cookie jar over fetch, no redirects followed. */
class Browser {
  private readonly jar = new Map<string, string>();
  constructor(private readonly base: string) {}

  get cookieHeader(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(`${this.base}${path}`, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: this.cookieHeader },
    });
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      const at = pair.indexOf('=');
      if (pair.slice(at + 1)) this.jar.set(pair.slice(0, at), pair.slice(at + 1));
      else this.jar.delete(pair.slice(0, at));
    }
    return res;
  }
}

/** Signs `username` in at the portal at `base`; returns the headers a signed-in API call sends. */
export async function signInOverHttp(base: string, username: string): Promise<Record<string, string>> {
  const browser = new Browser(base);
  await browser.request('/api/csrf');
  const login = await browser.request('/api/saml/login/standard?next=%2Fwelcome');
  const location = login.headers.get('location');
  if (!location) throw new Error(`login at ${base} answered ${login.status} without a redirect`);
  const requestId = authnRequestIdFromUrl(location);
  const { entityId, acsUrl } = spEndpoints(base);
  const samlResponse = forgeResponse({
    issuer: IDP_ENTITY_ID,
    acsUrl,
    audience: entityId,
    nameId: username,
    inResponseTo: requestId,
    keys: fixtureKeys('idp'),
  });
  const acs = await browser.request('/api/saml/acs', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: '/welcome' }).toString(),
  });
  if (acs.status !== 303) throw new Error(`sign-in at ${base} failed: ${acs.status} ${await acs.text()}`);
  const check = await browser.request('/api/user', { headers: { 'x-pra-api-call': 'true' } });
  if (check.status !== 200) throw new Error(`GET /api/user after sign-in answered ${check.status}`);
  return { cookie: browser.cookieHeader, 'x-pra-api-call': 'true' };
}
