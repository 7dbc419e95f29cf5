import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import querystring from 'node:querystring';
import { SAML, ValidateInResponseTo, type CacheProvider, type SamlConfig } from '@node-saml/node-saml';
import { api } from '@pra/contracts';
import type { Config } from '../config';
import type { Db } from '../platform/db';
import type { KeyPair } from '../platform/keys';
import type { IdpDescription } from '../platform/idp-metadata';
import * as saml from '../store/saml';

/** How long a sign-in may take between the AuthnRequest and the response. */
export const REQUEST_TTL_MS = 10 * 60_000;
/** Clock skew tolerated between the IdP and us. */
const CLOCK_SKEW_MS = 30_000;

export interface SpEndpoints {
  entityId: string;
  acsUrl: string;
}

export function spEndpoints(publicUrl: string): SpEndpoints & { sloUrl: string } {
  return {
    entityId: `${publicUrl}${api.samlMetadata}`,
    acsUrl: `${publicUrl}${api.samlAcs}`,
    sloUrl: `${publicUrl}${api.samlSingleLogout}`,
  };
}

/**
 * AuthnRequest ids live in the database so that any instance can finish a sign-in another
 * started, each with the hash of the starting browser's nonce (empty where only validation
 * uses the cache). `removeAsync` does nothing: the ACS consumes the id itself, atomically.
 *
 * With `consumedLater`, lookups are answered as live without a round trip: the instance validates
 * one response that the ACS then consumes with consumeRequestAndRecordAssertion, whose one
 * statement is what decides whether the id was issued, is unexpired, unused and this browser's.
 * node-saml's lookups (the Response's InResponseTo, then the SubjectConfirmationData's, which
 * must equal it) would only decide the same thing earlier, in two more round trips.
 */
function databaseRequestCache(db: Db, browserHash = '', consumedLater = false): CacheProvider {
  return {
    async saveAsync(key, value) {
      await saml.recordRequest(db, {
        id: key,
        expiresAt: new Date(Date.now() + REQUEST_TTL_MS),
        browserHash,
      });
      return { value, createdAt: Date.now() };
    },
    async getAsync(key) {
      if (consumedLater) return new Date().toISOString();
      const createdAt = await saml.liveRequestCreatedAt(db, key);
      return createdAt ? createdAt.toISOString() : null;
    },
    async removeAsync() {
      return null;
    },
  };
}

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

/** The SP's private key, parsed from its PEM once rather than at every signature. */
const signingKeys = new WeakMap<KeyPair, KeyObject>();
function signingKey(keys: KeyPair): KeyObject {
  let key = signingKeys.get(keys);
  if (!key) {
    key = createPrivateKey(keys.privateKeyPem);
    signingKeys.set(keys, key);
  }
  return key;
}

/**
 * node-saml's SP, signing its redirect messages (AuthnRequest, LogoutRequest) with the parsed key:
 * node-saml's own signRequest hands the PEM to OpenSSL at every signature, about 1 ms of each
 * login redirect. The signed octets are node-saml's: the message, RelayState and SigAlg, as
 * querystring.stringify encodes them (RSA-SHA256, the only algorithm the portal configures).
 */
class PortalSaml extends SAML {
  constructor(
    options: SamlConfig,
    private readonly key: KeyObject,
  ) {
    super(options);
  }

  protected override signRequest(samlMessage: querystring.ParsedUrlQueryInput): void {
    samlMessage.SigAlg = RSA_SHA256;
    const signed: querystring.ParsedUrlQueryInput = {};
    for (const name of ['SAMLRequest', 'SAMLResponse', 'RelayState', 'SigAlg']) {
      if (samlMessage[name]) signed[name] = samlMessage[name];
    }
    samlMessage.Signature = sign('sha256', Buffer.from(querystring.stringify(signed)), this.key).toString(
      'base64',
    );
  }
}

const POST_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/**
 * The SP's metadata: node-saml's, with the single logout service in the HTTP-Redirect binding
 * (node-saml writes HTTP-POST; the portal's SLO endpoint answers GET, which every IdP offers).
 */
export function serviceProviderMetadata(sp: SAML, certPem: string, sloUrl: string): string {
  const xml = sp.generateServiceProviderMetadata(null, certPem);
  const posted = `Binding="${POST_BINDING}" Location="${sloUrl}"`;
  if (!xml.includes(posted)) throw new Error('node-saml metadata without the expected SingleLogoutService');
  return xml.replace(posted, `Binding="${REDIRECT_BINDING}" Location="${sloUrl}"`);
}

/**
 * The node-saml service provider, pinned to the IdP's certificates. A sign-in is started with an
 * instance made for the browser (`browserHash`), so its request id is recorded with it; a response
 * is validated by an instance made for it (`consumedLater`: see databaseRequestCache).
 */
export function createServiceProvider(
  config: Config,
  db: Db,
  spKeys: KeyPair,
  idp: IdpDescription,
  options: { browserHash?: string; consumedLater?: boolean; stepUp?: boolean } = {},
): SAML {
  const { entityId, acsUrl, sloUrl } = spEndpoints(config.publicUrl);
  // A step-up (GOVERNANCE.md §7.6) asks for a fresh sign-in with a phishing-resistant class.
  const authnContext = options.stepUp ? config.phishingResistantClasses : config.requiredAuthnContext;
  return new PortalSaml(
    {
      callbackUrl: acsUrl,
      entryPoint: idp.ssoUrl,
      issuer: entityId,
      audience: entityId,
      idpIssuer: idp.entityId,
      idpCert: idp.signingCerts,
      privateKey: spKeys.privateKeyPem,
      publicCert: spKeys.certPem,
      signatureAlgorithm: 'sha256',
      digestAlgorithm: 'sha256',
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: true,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      maxAssertionAgeMs: REQUEST_TTL_MS,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: REQUEST_TTL_MS,
      cacheProvider: databaseRequestCache(db, options.browserHash, options.consumedLater),
      identifierFormat: null,
      // Asked for when the hospital requires a context (e.g. MFA); sign-in.ts enforces it.
      ...(authnContext.length > 0
        ? { disableRequestedAuthnContext: false, authnContext, racComparison: 'exact' as const }
        : { disableRequestedAuthnContext: true }),
      ...(options.stepUp ? { forceAuthn: true } : {}),
      logoutCallbackUrl: sloUrl,
      ...(idp.logoutUrl ? { logoutUrl: idp.logoutUrl } : {}),
    },
    signingKey(spKeys),
  );
}
