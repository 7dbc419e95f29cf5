import * as samlify from 'samlify';
import type { AppContext } from '../platform/app-context';
import { spEndpoints } from '../identity/saml-sp';

const redirectBinding = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/**
 * The addresses both sides of the portal's own SAML exchange agree on: the SP's as the SP makes
 * them, the IdP's from the description the SP trusts (the built-in one whenever these routes run).
 */
export function samlUrls(ctx: AppContext) {
  const sp = spEndpoints(ctx.config.publicUrl);
  return {
    spEntityId: sp.entityId,
    acsUrl: sp.acsUrl,
    idpEntityId: ctx.idp.entityId,
    ssoUrl: ctx.idp.ssoUrl,
  };
}

const cache = new WeakMap<AppContext, samlify.IdentityProviderInstance>();

/**
 * The built-in IdP as samlify describes it, for its metadata. Requests and responses do not go
 * through samlify (authn-request.ts, saml-response.ts).
 */
export function samlIdentityProvider(ctx: AppContext): samlify.IdentityProviderInstance {
  const cached = cache.get(ctx);
  if (cached) return cached;
  const keys = ctx.keys.idp;
  if (!keys) throw new Error('the built-in IdP has no signing key');
  const urls = samlUrls(ctx);
  const idp = samlify.IdentityProvider({
    entityID: urls.idpEntityId,
    signingCert: keys.certPem,
    wantAuthnRequestsSigned: true,
    requestSignatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified'],
    singleSignOnService: [{ Binding: redirectBinding, Location: urls.ssoUrl }],
  });
  cache.set(ctx, idp);
  return idp;
}
