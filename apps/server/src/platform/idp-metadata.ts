import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';
import { ConfigError } from '../config';
import { certBody, type KeyPair } from './keys';
import { readSettingFile } from './setting-files';

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

const VARIABLE = 'IDP_METADATA';

function refuse(text: string): never {
  throw new ConfigError(`${VARIABLE}: ${text}`);
}

/**
 * Reads IdP metadata XML: entity id, redirect-binding SSO and SLO URLs, signing certificates.
 * `where` (the file or URL) is named in every refusal.
 */
function parseIdpMetadata(xml: string, where: string): IdpDescription {
  if (/<!DOCTYPE/i.test(xml)) refuse(`${where} must not contain a DOCTYPE`);
  let broken = false;
  const doc = new DOMParser({
    errorHandler: { warning: () => {}, error: () => (broken = true), fatalError: () => (broken = true) },
  }).parseFromString(xml, 'text/xml');
  const root = doc?.documentElement;
  if (broken || !root) refuse(`${where} is not XML`);
  if (root.localName !== 'EntityDescriptor' || root.namespaceURI !== ns.md) {
    refuse(
      `${where} is not one identity provider's SAML metadata: its root element is <${root.tagName}>, not an md:EntityDescriptor`,
    );
  }
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
  if (!entityId) refuse(`${where} has no entityID`);
  if (!ssoUrl) refuse(`${where} has no HTTP-Redirect SingleSignOnService`);
  if (signingCerts.length === 0) refuse(`${where} has no signing certificate`);
  return { entityId, ssoUrl, logoutUrl, signingCerts };
}

/** Error codes of a certificate the TLS client does not trust. */
const untrusted = /^(CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_TLS_CERT)/;

/** Why a fetch of `url` failed, in an operator's words. */
function fetchFailure(error: unknown, url: URL, timeoutMs: number): string {
  const name = (error as Error).name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return `no answer within ${timeoutMs / 1000} s (timeout)`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? '';
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME')
    return `DNS: the host name ${url.hostname} does not resolve (${code})`;
  if (code === 'ECONNREFUSED') return `connection refused by ${url.hostname}:${port}`;
  if (code === 'ECONNRESET') return `the connection to ${url.hostname}:${port} was reset`;
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return `connecting to ${url.hostname}:${port} timed out`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return `${url.hostname}:${port} is unreachable (${code})`;
  if (untrusted.test(code))
    return `TLS: the server's certificate is not trusted (${code}); give Node your CA with NODE_EXTRA_CA_CERTS`;
  return cause?.message ?? (error as Error).message;
}

export interface MetadataOptions {
  /** How long the whole fetch may take. */
  timeoutMs?: number;
}

/**
 * Loads IdP metadata from a file path or an http(s):// URL. Whatever fails is refused naming
 * IDP_METADATA, the file or URL, and why: the file's error, DNS, a refused connection, a timeout,
 * the HTTP status, or an answer that is not XML or not an IdP's metadata.
 */
export async function loadIdpMetadata(
  source: string,
  options: MetadataOptions = {},
): Promise<IdpDescription> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (!/^https?:\/\//i.test(source)) return parseIdpMetadata(readSettingFile(VARIABLE, source), source);
  const url = new URL(source);
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    refuse(`cannot fetch ${source}: ${fetchFailure(error, url, timeoutMs)}`);
  }
  if (!response.ok)
    refuse(
      `${source} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
    );
  let body: string;
  try {
    body = await response.text();
  } catch (error) {
    refuse(`cannot fetch ${source}: ${fetchFailure(error, url, timeoutMs)}`);
  }
  return parseIdpMetadata(body, source);
}

/** The built-in IdP, served by this portal under /idp. */
export function builtinIdpDescription(publicUrl: string, keys: KeyPair): IdpDescription {
  return {
    entityId: `${publicUrl}/idp/metadata`,
    ssoUrl: `${publicUrl}/idp/sso`,
    signingCerts: [certBody(keys.certPem)],
  };
}
