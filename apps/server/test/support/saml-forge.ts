import { randomUUID, sign as cryptoSign } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';
import type { KeyPair } from '../../src/platform/keys';

/**
 * Builds SAML responses by hand for tests, so each negative case can break exactly one thing:
 * the signatures and their algorithms, the Issuers, the status, the audience, Destination,
 * Recipient, the confirmation method, the validity window, InResponseTo.
 */
export interface ForgeOptions {
  issuer: string;
  acsUrl: string;
  audience: string;
  nameId: string;
  inResponseTo?: string | null;
  destination?: string | null;
  recipient?: string;
  notBefore?: Date;
  notOnOrAfter?: Date;
  attributes?: Record<string, string>;
  signResponse?: boolean;
  signAssertion?: boolean;
  keys: KeyPair;
  /** Puts the signer's certificate into KeyInfo (an attacker's trick when signing with another key). */
  embedCert?: boolean;
  /** Edits the signed XML afterwards (e.g. a NameID changed after signing). */
  tamper?: (xml: string) => string;
  assertionId?: string;
  /** The Response's own Issuer when it differs from `issuer` (null: none). */
  responseIssuer?: string | null;
  /** The Assertion's Issuer when it differs from `issuer`. */
  assertionIssuer?: string;
  /** The top-level StatusCode (Success unless told). */
  statusCode?: string;
  /** The SubjectConfirmation Method (bearer unless told). */
  confirmationMethod?: string;
  /** Signature and digest algorithms of both signatures (SHA-256 unless told). */
  signatureAlgorithm?: string;
  digestAlgorithm?: string;
  /** The AuthnStatement's AuthnContextClassRef (PasswordProtectedTransport unless told; null: none). */
  authnContextClassRef?: string | null;
  /** The AuthnStatement's SessionIndex (a fresh one unless told). */
  sessionIndex?: string;
}

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
/** What an IdP says of a password-only sign-in. */
export const PASSWORD_PROTECTED = 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';

const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

function sign(xml: string, o: ForgeOptions, localName: 'Assertion' | 'Response'): string {
  const embedCert = o.embedCert ?? false;
  const sig = new SignedXml({
    privateKey: o.keys.privateKeyPem,
    publicCert: embedCert ? o.keys.certPem : undefined,
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    signatureAlgorithm: o.signatureAlgorithm ?? RSA_SHA256,
  });
  sig.addReference({
    xpath: `/*[local-name(.)='Response']${localName === 'Assertion' ? "/*[local-name(.)='Assertion']" : ''}`,
    digestAlgorithm: o.digestAlgorithm ?? SHA256,
    transforms: [
      'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
      'http://www.w3.org/2001/10/xml-exc-c14n#',
    ],
  });
  // The signature goes after the Issuer (or first, in a Response without one).
  const location =
    localName === 'Assertion'
      ? {
          reference: "/*[local-name(.)='Response']/*[local-name(.)='Assertion']/*[local-name(.)='Issuer']",
          action: 'after' as const,
        }
      : o.responseIssuer === null
        ? { reference: "/*[local-name(.)='Response']", action: 'prepend' as const }
        : { reference: "/*[local-name(.)='Response']/*[local-name(.)='Issuer']", action: 'after' as const };
  sig.computeSignature(xml, { location, prefix: 'ds' });
  return sig.getSignedXml();
}

export function forgeResponseXml(o: ForgeOptions): string {
  const now = new Date();
  const notBefore = (o.notBefore ?? new Date(now.getTime() - 60_000)).toISOString();
  const notOnOrAfter = (o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000)).toISOString();
  const issueInstant = (o.notBefore ? new Date(o.notBefore.getTime() + 60_000) : now).toISOString();
  const inResponseTo = o.inResponseTo === null ? '' : ` InResponseTo="${esc(o.inResponseTo ?? '')}"`;
  const destination = o.destination === null ? '' : ` Destination="${esc(o.destination ?? o.acsUrl)}"`;
  const attrs = Object.entries(o.attributes ?? {})
    .map(
      ([k, v]) =>
        `<saml:Attribute Name="${esc(k)}"><saml:AttributeValue>${esc(v)}</saml:AttributeValue></saml:Attribute>`,
    )
    .join('');
  const assertionId = o.assertionId ?? `_a${randomUUID()}`;
  let xml =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomUUID()}" Version="2.0" IssueInstant="${issueInstant}"${destination}${inResponseTo}>` +
    (o.responseIssuer === null ? '' : `<saml:Issuer>${esc(o.responseIssuer ?? o.issuer)}</saml:Issuer>`) +
    `<samlp:Status><samlp:StatusCode Value="${esc(o.statusCode ?? 'urn:oasis:names:tc:SAML:2.0:status:Success')}"/></samlp:Status>` +
    `<saml:Assertion ID="${assertionId}" Version="2.0" IssueInstant="${issueInstant}">` +
    `<saml:Issuer>${esc(o.assertionIssuer ?? o.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${esc(o.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="${esc(o.confirmationMethod ?? 'urn:oasis:names:tc:SAML:2.0:cm:bearer')}"><saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${esc(o.recipient ?? o.acsUrl)}"${inResponseTo}/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${esc(o.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${issueInstant}" SessionIndex="${esc(o.sessionIndex ?? `_s${randomUUID()}`)}"><saml:AuthnContext>${o.authnContextClassRef === null ? '' : `<saml:AuthnContextClassRef>${esc(o.authnContextClassRef ?? PASSWORD_PROTECTED)}</saml:AuthnContextClassRef>`}</saml:AuthnContext></saml:AuthnStatement>` +
    (attrs ? `<saml:AttributeStatement>${attrs}</saml:AttributeStatement>` : '') +
    `</saml:Assertion></samlp:Response>`;
  if (o.signAssertion !== false) xml = sign(xml, o, 'Assertion');
  if (o.signResponse !== false) xml = sign(xml, o, 'Response');
  return o.tamper ? o.tamper(xml) : xml;
}

export function forgeResponse(o: ForgeOptions): string {
  return Buffer.from(forgeResponseXml(o)).toString('base64');
}

/** The AuthnRequest id inside a redirect-binding login URL. */
export function authnRequestIdFromUrl(location: string): string {
  const url = new URL(location);
  const encoded = url.searchParams.get('SAMLRequest');
  if (!encoded) throw new Error(`no SAMLRequest in ${location}`);
  const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
  const id = /\sID="([^"]+)"/.exec(xml)?.[1];
  if (!id) throw new Error('no ID in AuthnRequest');
  return id;
}

export interface LogoutRequestOptions {
  issuer: string;
  destination: string;
  nameId: string;
  sessionIndex?: string;
  /** Who signs the query string (null: unsigned). */
  keys: KeyPair | null;
  relayState?: string;
  /** The signature algorithm URI (RSA-SHA256 unless told). */
  sigAlg?: string;
  /** Edits the query string after signing. */
  tamper?: (query: string) => string;
  notOnOrAfter?: Date;
}

/**
 * An IdP's LogoutRequest in the HTTP-Redirect binding: the query string (without `?`), deflated,
 * base64 and signed over `SAMLRequest=…&RelayState=…&SigAlg=…` as the binding says.
 */
export function redirectLogoutRequest(o: LogoutRequestOptions): string {
  const now = new Date();
  const notOnOrAfter = (o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000)).toISOString();
  const xml =
    `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_l${randomUUID()}" Version="2.0" IssueInstant="${now.toISOString()}" Destination="${esc(o.destination)}" NotOnOrAfter="${notOnOrAfter}">` +
    `<saml:Issuer>${esc(o.issuer)}</saml:Issuer>` +
    `<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${esc(o.nameId)}</saml:NameID>` +
    (o.sessionIndex ? `<samlp:SessionIndex>${esc(o.sessionIndex)}</samlp:SessionIndex>` : '') +
    `</samlp:LogoutRequest>`;
  const message = deflateRawSync(Buffer.from(xml)).toString('base64');
  let query = `SAMLRequest=${encodeURIComponent(message)}`;
  if (o.relayState !== undefined) query += `&RelayState=${encodeURIComponent(o.relayState)}`;
  if (o.keys) {
    const sigAlg = o.sigAlg ?? RSA_SHA256;
    query += `&SigAlg=${encodeURIComponent(sigAlg)}`;
    const hash = sigAlg.endsWith('rsa-sha1') ? 'sha1' : 'sha256';
    const signature = cryptoSign(hash, Buffer.from(query), o.keys.privateKeyPem).toString('base64');
    query += `&Signature=${encodeURIComponent(signature)}`;
  }
  return o.tamper ? o.tamper(query) : query;
}

/** The XML of a deflated, base64 redirect-binding message (`SAMLRequest` or `SAMLResponse`). */
export function inflateMessage(encoded: string): string {
  return inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
}
