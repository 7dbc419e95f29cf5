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

/** The entityID of an md:EntityDescriptor. */
const entityIdOf = (entity: Element) => entity.getAttribute('entityID')?.trim() ?? '';

/**
 * The entity to trust: the document's one EntityDescriptor, or in a federation's (possibly
 * nested) EntitiesDescriptor the identity provider IDP_ENTITY_ID names (or its only one).
 */
function chooseEntity(root: Element, where: string, wanted: string | undefined): Element {
  if (root.localName === 'EntityDescriptor' && root.namespaceURI === ns.md) {
    const entityId = entityIdOf(root);
    if (wanted && entityId && entityId !== wanted) {
      refuse(`${where} describes the entity ${entityId}, not IDP_ENTITY_ID ${wanted}`);
    }
    return root;
  }
  if (root.localName !== 'EntitiesDescriptor' || root.namespaceURI !== ns.md) {
    refuse(
      `${where} is not SAML metadata: its root element is <${root.tagName}>, not an md:EntityDescriptor or md:EntitiesDescriptor`,
    );
  }
  const idps = (select('.//md:EntityDescriptor[md:IDPSSODescriptor]', root) as Element[]).filter((e) =>
    entityIdOf(e),
  );
  if (wanted) {
    const chosen = idps.find((e) => entityIdOf(e) === wanted);
    if (!chosen) {
      refuse(
        `${where} is an EntitiesDescriptor of ${idps.length} identity provider(s), none of them IDP_ENTITY_ID ${wanted}`,
      );
    }
    return chosen;
  }
  const only = idps[0];
  if (idps.length !== 1 || !only) {
    refuse(
      `${where} is an EntitiesDescriptor of ${idps.length} identity providers: set IDP_ENTITY_ID to the entityID of the one to trust`,
    );
  }
  return only;
}

/**
 * Reads IdP metadata XML: entity id, redirect-binding SSO and SLO URLs, signing certificates, of
 * the one EntityDescriptor or of the entity IDP_ENTITY_ID chooses in an EntitiesDescriptor.
 * `where` (the file or URL) is named in every refusal.
 */
export function parseIdpMetadata(xml: string, where: string, wantedEntityId?: string): IdpDescription {
  if (/<!DOCTYPE/i.test(xml)) refuse(`${where} must not contain a DOCTYPE`);
  let broken = false;
  const doc = new DOMParser({
    errorHandler: { warning: () => {}, error: () => (broken = true), fatalError: () => (broken = true) },
  }).parseFromString(xml, 'text/xml');
  const root = doc?.documentElement;
  if (broken || !root) refuse(`${where} is not XML`);
  const entity = chooseEntity(root, where, wantedEntityId);
  const text = (expr: string) => {
    const nodes = select(expr, entity) as Node[];
    return nodes.map((n) => (n.nodeValue ?? n.textContent ?? '').trim()).filter(Boolean);
  };
  const entityId = entityIdOf(entity);
  const ssoUrl = text(`./md:IDPSSODescriptor/md:SingleSignOnService[@Binding='${REDIRECT}']/@Location`)[0];
  const logoutUrl = text(`./md:IDPSSODescriptor/md:SingleLogoutService[@Binding='${REDIRECT}']/@Location`)[0];
  const signingCerts = text(
    "./md:IDPSSODescriptor/md:KeyDescriptor[not(@use) or @use='signing']/ds:KeyInfo/ds:X509Data/ds:X509Certificate/text()",
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
  /** IDP_ENTITY_ID: the entity to trust in a federation's EntitiesDescriptor. */
  entityId?: string | undefined;
}

/** IDP_METADATA names a URL (fetched, refreshed, its last good copy kept) rather than a file. */
export const isMetadataUrl = (source: string) => /^https?:\/\//i.test(source);

/** The IdP's description and the XML it was read from. */
export interface LoadedMetadata {
  idp: IdpDescription;
  xml: string;
}

/**
 * Loads IdP metadata from a file path or an http(s):// URL. Whatever fails is refused naming
 * IDP_METADATA, the file or URL, and why: the file's error, DNS, a refused connection, a timeout,
 * the HTTP status, or an answer that is not XML or not an IdP's metadata.
 */
export async function readIdpMetadata(
  source: string,
  options: MetadataOptions = {},
): Promise<LoadedMetadata> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (!isMetadataUrl(source)) {
    const xml = readSettingFile(VARIABLE, source);
    return { idp: parseIdpMetadata(xml, source, options.entityId), xml };
  }
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
  return { idp: parseIdpMetadata(body, source, options.entityId), xml: body };
}

/** The IdP's description from IDP_METADATA (see readIdpMetadata). */
export async function loadIdpMetadata(
  source: string,
  options: MetadataOptions = {},
): Promise<IdpDescription> {
  return (await readIdpMetadata(source, options)).idp;
}

/** The built-in IdP, served by this portal under /idp. */
export function builtinIdpDescription(publicUrl: string, keys: KeyPair): IdpDescription {
  return {
    entityId: `${publicUrl}/idp/metadata`,
    ssoUrl: `${publicUrl}/idp/sso`,
    signingCerts: [certBody(keys.certPem)],
  };
}
