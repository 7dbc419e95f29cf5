import { createPrivateKey, randomUUID, type KeyObject } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import type { AppContext } from '../platform/app-context';
import { escapeText } from '../http/html';
import type { PendingAuthnRequest } from './authn-request';
import { samlUrls } from './saml-entities';

/** The assertion is good for five minutes, and from a minute ago to absorb clock skew. */
const VALID_FOR_MS = 5 * 60_000;
const SKEW_MS = 60_000;

export interface SignedInAccount {
  username: string;
  givenName: string;
  familyName: string;
  email: string;
}

const newId = () => `_${randomUUID()}`;

function attribute(name: string, value: string): string {
  return (
    `<saml:Attribute Name="${escapeText(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">` +
    `<saml:AttributeValue xsi:type="xs:string">${escapeText(value)}</saml:AttributeValue></saml:Attribute>`
  );
}

/** The unsigned Response; every value is XML-escaped, whatever its source. */
function responseXml(
  ctx: AppContext,
  pending: PendingAuthnRequest,
  account: SignedInAccount,
  id: string,
): string {
  const urls = samlUrls(ctx);
  const now = Date.now();
  const at = (offset: number) => escapeText(new Date(now + offset).toISOString());
  const e = escapeText;
  return [
    '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"',
    ` ID="${e(id)}" Version="2.0" IssueInstant="${at(0)}" Destination="${e(urls.acsUrl)}" InResponseTo="${e(pending.requestId)}">`,
    `<saml:Issuer>${e(urls.idpEntityId)}</saml:Issuer>`,
    '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>',
    '<saml:Assertion xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema"',
    ` ID="${e(newId())}" Version="2.0" IssueInstant="${at(0)}">`,
    `<saml:Issuer>${e(urls.idpEntityId)}</saml:Issuer>`,
    '<saml:Subject>',
    `<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${e(account.username)}</saml:NameID>`,
    '<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">',
    `<saml:SubjectConfirmationData NotOnOrAfter="${at(VALID_FOR_MS)}" Recipient="${e(urls.acsUrl)}" InResponseTo="${e(pending.requestId)}"/>`,
    '</saml:SubjectConfirmation></saml:Subject>',
    `<saml:Conditions NotBefore="${at(-SKEW_MS)}" NotOnOrAfter="${at(VALID_FOR_MS)}">`,
    `<saml:AudienceRestriction><saml:Audience>${e(urls.spEntityId)}</saml:Audience></saml:AudienceRestriction>`,
    '</saml:Conditions>',
    `<saml:AuthnStatement AuthnInstant="${at(0)}" SessionIndex="${e(newId())}">`,
    '<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext>',
    '</saml:AuthnStatement>',
    '<saml:AttributeStatement>',
    attribute('givenName', account.givenName),
    attribute('sn', account.familyName),
    attribute('mail', account.email),
    '</saml:AttributeStatement>',
    '</saml:Assertion></samlp:Response>',
  ].join('');
}

const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
const RESPONSE = "/*[local-name(.)='Response']";
const ASSERTION = `${RESPONSE}/*[local-name(.)='Assertion']`;

/** The IdP's signing key, parsed from its PEM once per app rather than at every signature. */
const signingKeys = new WeakMap<AppContext, KeyObject>();
function signingKey(ctx: AppContext): KeyObject {
  let key = signingKeys.get(ctx);
  if (!key) {
    const pem = ctx.keys.idp?.privateKeyPem;
    if (!pem) throw new Error('the built-in IdP has no signing key');
    key = createPrivateKey(pem);
    signingKeys.set(ctx, key);
  }
  return key;
}

/**
 * An enveloped signature (RSA-SHA256, SHA-256 digest, exclusive c14n) of the element at `element`,
 * placed right after that element's Issuer, as SAML's schema wants it. No KeyInfo: the SP pins
 * the IdP's certificate and never takes a key from the document.
 */
function signElement(xml: string, key: KeyObject, element: string): string {
  const signer = new SignedXml({
    privateKey: key,
    canonicalizationAlgorithm: EXC_C14N,
    signatureAlgorithm: RSA_SHA256,
  });
  signer.addReference({ xpath: element, transforms: [ENVELOPED, EXC_C14N], digestAlgorithm: SHA256 });
  signer.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: `${element}/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return signer.getSignedXml();
}

/**
 * The base64 SAMLResponse for the SP's ACS: the Assertion is signed, then the whole Response
 * (RSA-SHA256, SHA-256 digests) with the IdP key, because the portal's SP wants both.
 */
export function createSignedResponse(
  ctx: AppContext,
  pending: PendingAuthnRequest,
  account: SignedInAccount,
): string {
  const key = signingKey(ctx);
  const xml = responseXml(ctx, pending, account, newId());
  return Buffer.from(signElement(signElement(xml, key, ASSERTION), key, RESPONSE)).toString('base64');
}
