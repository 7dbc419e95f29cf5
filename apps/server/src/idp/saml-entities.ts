import * as samlify from 'samlify';
import type { AppContext } from '../platform/app-context';
import { spEndpoints } from '../platform/saml-sp';
import { samlSchemaValidator } from './schema-validator';

/** samlify refuses to parse anything until a schema validator is set; this one checks the SAML XSDs. */
samlify.setSchemaValidator(samlSchemaValidator);

const postBinding = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
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

export interface SamlEntities {
  idp: samlify.IdentityProviderInstance;
  sp: samlify.ServiceProviderInstance;
}

const cache = new WeakMap<AppContext, SamlEntities>();

/**
 * The built-in IdP and the portal's SP as samlify sees them. The SP is registered here, not
 * read from its metadata: its certificate and ACS are pinned from the portal's own keys.
 */
export function samlEntities(ctx: AppContext): SamlEntities {
  const cached = cache.get(ctx);
  if (cached) return cached;
  const keys = ctx.keys.idp;
  if (!keys) throw new Error('the built-in IdP has no signing key');
  const urls = samlUrls(ctx);
  const idp = samlify.IdentityProvider({
    entityID: urls.idpEntityId,
    privateKey: keys.privateKeyPem,
    signingCert: keys.certPem,
    wantAuthnRequestsSigned: true,
    requestSignatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified'],
    singleSignOnService: [{ Binding: redirectBinding, Location: urls.ssoUrl }],
  });
  const sp = samlify.ServiceProvider({
    entityID: urls.spEntityId,
    signingCert: ctx.keys.sp.certPem,
    authnRequestsSigned: true,
    // Both flags together make samlify sign the Assertion and then the whole Response.
    wantAssertionsSigned: true,
    wantMessageSigned: true,
    assertionConsumerService: [{ Binding: postBinding, Location: urls.acsUrl }],
  });
  const entities = { idp, sp };
  cache.set(ctx, entities);
  return entities;
}
