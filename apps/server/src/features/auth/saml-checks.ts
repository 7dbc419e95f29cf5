import { DOMParser } from '@xmldom/xmldom';

const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';

/** A SAML document we refuse before parsing: DTDs (entity expansion, external entities). */
export function hasForbiddenMarkup(samlResponseBase64: string): boolean {
  const xml = Buffer.from(samlResponseBase64, 'base64').toString('utf8');
  return /<!DOCTYPE|<!ENTITY/i.test(xml);
}

export interface AssertionFacts {
  assertionId: string;
  inResponseTo: string;
  expiresAt: Date;
}

/**
 * The checks node-saml leaves to us, on the documents it has verified: the Response's
 * Destination and the bearer confirmation's Recipient must both be our ACS, and the assertion
 * must carry an id (used once) and an InResponseTo. Throws with a reason fit for the log.
 */
export function checkAddressedToUs(
  responseXml: string,
  assertionXml: string,
  acsUrl: string,
): AssertionFacts {
  const parser = new DOMParser();
  const response = parser.parseFromString(responseXml, 'text/xml').documentElement;
  if (!response || response.localName !== 'Response' || response.namespaceURI !== PROTOCOL) {
    throw new Error('not a SAML Response');
  }
  if (response.getAttribute('Destination') !== acsUrl) throw new Error('Destination is not our ACS');
  const inResponseTo = response.getAttribute('InResponseTo') ?? '';
  if (!inResponseTo) throw new Error('InResponseTo is missing');

  const assertion = parser.parseFromString(assertionXml, 'text/xml').documentElement;
  if (!assertion || assertion.localName !== 'Assertion' || assertion.namespaceURI !== ASSERTION) {
    throw new Error('not a SAML Assertion');
  }
  const assertionId = assertion.getAttribute('ID') ?? '';
  if (!assertionId) throw new Error('assertion has no ID');
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
  return {
    assertionId,
    inResponseTo,
    expiresAt: expiresAt && !Number.isNaN(expiresAt.getTime()) ? expiresAt : fallback,
  };
}
