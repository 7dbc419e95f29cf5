import { readFile } from 'node:fs/promises';
import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';
import { certBody, type KeyPair } from './keys';

/** What the SP needs to know of an identity provider. */
export interface IdpDescription {
  entityId: string;
  ssoUrl: string;
  logoutUrl?: string | undefined;
  /** PEM bodies of the certificates its responses may be signed with. */
  signingCerts: string[];
}

const ns = {
  md: 'urn:oasis:names:tc:SAML:2.0:metadata',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
};
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const select = xpath.useNamespaces(ns);

/** Reads IdP metadata XML: entity id, redirect-binding SSO and SLO URLs, signing certificates. */
function parseIdpMetadata(xml: string): IdpDescription {
  if (/<!DOCTYPE/i.test(xml)) throw new Error('IdP metadata must not contain a DOCTYPE');
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const text = (expr: string) => {
    const nodes = select(expr, doc) as Node[];
    return nodes.map((n) => (n.nodeValue ?? n.textContent ?? '').trim()).filter(Boolean);
  };
  const entityId = text('/md:EntityDescriptor/@entityID')[0];
  const ssoUrl = text(`//md:IDPSSODescriptor/md:SingleSignOnService[@Binding='${REDIRECT}']/@Location`)[0];
  const logoutUrl = text(`//md:IDPSSODescriptor/md:SingleLogoutService[@Binding='${REDIRECT}']/@Location`)[0];
  const signingCerts = text(
    "//md:IDPSSODescriptor/md:KeyDescriptor[not(@use) or @use='signing']/ds:KeyInfo/ds:X509Data/ds:X509Certificate/text()",
  ).map((cert) => cert.replace(/\s+/g, ''));
  if (!entityId) throw new Error('IdP metadata has no entityID');
  if (!ssoUrl) throw new Error('IdP metadata has no HTTP-Redirect SingleSignOnService');
  if (signingCerts.length === 0) throw new Error('IdP metadata has no signing certificate');
  return { entityId, ssoUrl, logoutUrl, signingCerts };
}

/** Loads IdP metadata from a file path or an https:// URL. */
export async function loadIdpMetadata(source: string): Promise<IdpDescription> {
  if (/^https?:\/\//.test(source)) {
    const response = await fetch(source, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`IdP metadata at ${source} answered ${response.status}`);
    return parseIdpMetadata(await response.text());
  }
  return parseIdpMetadata(await readFile(source, 'utf8'));
}

/** The built-in IdP, served by this portal under /idp. */
export function builtinIdpDescription(publicUrl: string, keys: KeyPair): IdpDescription {
  return {
    entityId: `${publicUrl}/idp/metadata`,
    ssoUrl: `${publicUrl}/idp/sso`,
    signingCerts: [certBody(keys.certPem)],
  };
}
