import { DOMParser } from '@xmldom/xmldom';

const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const XMLDSIG = 'http://www.w3.org/2000/09/xmldsig#';
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
/** Signature and digest algorithms we accept: the SHA-2 family; SHA-1 is collision-prone. */
const STRONG_ALGORITHMS = new Set([
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
  'http://www.w3.org/2001/04/xmlenc#sha256',
  'http://www.w3.org/2001/04/xmldsig-more#sha384',
  'http://www.w3.org/2001/04/xmlenc#sha512',
]);

/** A SAML document we refuse before parsing: DTDs (entity expansion, external entities). */
export function hasForbiddenMarkup(samlResponseBase64: string): boolean {
  const xml = Buffer.from(samlResponseBase64, 'base64').toString('utf8');
  return /<!DOCTYPE|<!ENTITY/i.test(xml);
}

export interface AssertionFacts {
  assertionId: string;
  inResponseTo: string;
  expiresAt: Date;
  /** The AuthnContextClassRef of each AuthnStatement (how the IdP says it authenticated). */
  authnContextClassRefs: string[];
}

/** What the response must match: our ACS and the IdP we trust. */
export interface ExpectedParties {
  acsUrl: string;
  idpEntityId: string;
}

/** The element's own children with this name (not deeper ones: a wrapped copy must not count). */
function children(parent: Element, namespace: string, localName: string): Element[] {
  return Array.from(parent.childNodes).filter(
    (n): n is Element =>
      n.nodeType === 1 && (n as Element).localName === localName && (n as Element).namespaceURI === namespace,
  );
}

function issuerOf(element: Element): string {
  return children(element, ASSERTION, 'Issuer')[0]?.textContent?.trim() ?? '';
}

/**
 * The checks node-saml leaves to us, on the documents it has verified: both Issuers are the
 * IdP's entity id, the top-level status is Success, every signature and digest is SHA-2, the
 * Response's Destination and the bearer confirmation's Recipient are our ACS, and the assertion
 * carries an id (used once) and an InResponseTo. Throws with a reason fit for the log.
 */
export function checkAddressedToUs(
  responseXml: string,
  assertionXml: string,
  expected: ExpectedParties,
): AssertionFacts {
  const { acsUrl, idpEntityId } = expected;
  const parser = new DOMParser();
  const responseDoc = parser.parseFromString(responseXml, 'text/xml');
  const response = responseDoc.documentElement;
  if (!response || response.localName !== 'Response' || response.namespaceURI !== PROTOCOL) {
    throw new Error('not a SAML Response');
  }
  if (issuerOf(response) !== idpEntityId) throw new Error('Response Issuer is not our IdP');
  const status = children(response, PROTOCOL, 'Status')[0];
  const statusCode = status ? children(status, PROTOCOL, 'StatusCode')[0] : undefined;
  if (statusCode?.getAttribute('Value') !== SUCCESS) throw new Error('Response status is not Success');
  for (const name of ['SignatureMethod', 'DigestMethod']) {
    for (const method of Array.from(responseDoc.getElementsByTagNameNS(XMLDSIG, name))) {
      if (!STRONG_ALGORITHMS.has(method.getAttribute('Algorithm') ?? '')) {
        throw new Error(`${name} ${method.getAttribute('Algorithm') ?? '(none)'} refused`);
      }
    }
  }
  if (response.getAttribute('Destination') !== acsUrl) throw new Error('Destination is not our ACS');
  const inResponseTo = response.getAttribute('InResponseTo') ?? '';
  if (!inResponseTo) throw new Error('InResponseTo is missing');

  const assertion = parser.parseFromString(assertionXml, 'text/xml').documentElement;
  if (!assertion || assertion.localName !== 'Assertion' || assertion.namespaceURI !== ASSERTION) {
    throw new Error('not a SAML Assertion');
  }
  if (issuerOf(assertion) !== idpEntityId) throw new Error('Assertion Issuer is not our IdP');
  const assertionId = assertion.getAttribute('ID') ?? '';
  if (!assertionId) throw new Error('assertion has no ID');
  const subjectConfirmations = Array.from(assertion.getElementsByTagNameNS(ASSERTION, 'SubjectConfirmation'));
  if (subjectConfirmations.length === 0) throw new Error('no SubjectConfirmation');
  if (subjectConfirmations.some((c) => c.getAttribute('Method') !== BEARER)) {
    throw new Error('SubjectConfirmation Method is not bearer');
  }
  const confirmations = Array.from(assertion.getElementsByTagNameNS(ASSERTION, 'SubjectConfirmationData'));
  if (confirmations.length === 0) throw new Error('no SubjectConfirmationData');
  let expiresAt: Date | null = null;
  for (const data of confirmations) {
    if (data.getAttribute('Recipient') !== acsUrl) throw new Error('Recipient is not our ACS');
    const subjectInResponseTo = data.getAttribute('InResponseTo');
    if (subjectInResponseTo && subjectInResponseTo !== inResponseTo) throw new Error('InResponseTo mismatch');
    const notOnOrAfter = data.getAttribute('NotOnOrAfter');
    if (notOnOrAfter) expiresAt = new Date(notOnOrAfter);
  }
  const fallback = new Date(Date.now() + 10 * 60_000);
  const authnContextClassRefs = children(assertion, ASSERTION, 'AuthnStatement').flatMap((statement) =>
    children(statement, ASSERTION, 'AuthnContext').flatMap((context) =>
      children(context, ASSERTION, 'AuthnContextClassRef').map((ref) => ref.textContent?.trim() ?? ''),
    ),
  );
  return {
    assertionId,
    inResponseTo,
    authnContextClassRefs,
    expiresAt: expiresAt && !Number.isNaN(expiresAt.getTime()) ? expiresAt : fallback,
  };
}
