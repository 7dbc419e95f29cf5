// A signed-in session on a server process running the built-in IdP (standalone), without its
// login pages: the IdP's answer is made with the key the instances keep (in the database,
// encrypted with the data folder's key), as the IdP itself would sign it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEncryptor } from '../../src/platform/encryption';
import { authnRequestIdFromUrl, forgeResponse } from './saml-forge';
import { runSql } from './server-process';

/** The built-in IdP's signing key and certificate, as the instances of `dataDir` keep them. */
export async function builtinIdpKeys(databaseUrl: string, dataDir: string) {
  const stored = await runSql(
    databaseUrl,
    `select private_key_encrypted, cert_pem from signing_keys where name = 'saml-idp'`,
  );
  const encryptor = createEncryptor(readFileSync(join(dataDir, 'data-encryption-key'), 'utf8').trim());
  return {
    privateKeyPem: encryptor.decrypt(stored.rows[0].private_key_encrypted as string),
    certPem: stored.rows[0].cert_pem as string,
  };
}

/** The cookie `name` a response sets, as `name=value`; '' when it clears it. */
export function setCookie(res: Response, name = 'pra_session'): string | undefined {
  const header = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  if (!header) return undefined;
  const pair = header.split(';')[0] ?? '';
  return pair.endsWith('=') ? '' : pair;
}

/** Signs `username` in at the instance at `url` (public address `publicUrl`): its session cookie. */
export async function signInToInstance(o: {
  url: string;
  publicUrl: string;
  databaseUrl: string;
  dataDir: string;
  username: string;
}): Promise<string> {
  const login = await fetch(`${o.url}/api/saml/login/standard?next=%2Fwelcome`, { redirect: 'manual' });
  const location = login.headers.get('location') ?? '';
  const samlResponse = forgeResponse({
    issuer: `${o.publicUrl}/idp/metadata`,
    acsUrl: `${o.publicUrl}/api/saml/acs`,
    audience: `${o.publicUrl}/api/saml/metadata`,
    nameId: o.username,
    inResponseTo: authnRequestIdFromUrl(location),
    keys: await builtinIdpKeys(o.databaseUrl, o.dataDir),
  });
  const acs = await fetch(`${o.url}/api/saml/acs`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: `${setCookie(login) ?? ''}; ${setCookie(login, 'pra_saml') ?? ''}`,
    },
    body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: '/welcome' }).toString(),
  });
  const cookie = setCookie(acs);
  if (acs.status !== 303 || !cookie) throw new Error(`the ACS answered ${acs.status} without a session`);
  return cookie;
}
