import { createPublicKey, verify as verifySignature, type KeyObject } from 'node:crypto';
import querystring from 'node:querystring';
import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import type { AppContext } from '../platform/app-context';
import { samlUrls } from './saml-entities';
import { samlSchemaValidator } from './schema-validator';

/**
 * What the IdP keeps of an accepted AuthnRequest until it answers it. The answer always goes to
 * the registered ACS (`samlUrls`), the only one a request may ask for.
 */
export interface PendingAuthnRequest {
  requestId: string;
  relayState: string | null;
  /**
   * The request's `RequestedAuthnContext` (SAML core 3.3.2.2.1), when it has one: the classes
   * asked for and how the answer's class compares with them (`exact` unless the SP said otherwise).
   */
  requestedAuthnContext?: RequestedAuthnContext;
}

export interface RequestedAuthnContext {
  classRefs: string[];
  comparison: 'exact' | 'minimum' | 'maximum' | 'better';
}

const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
/** Generous limits that still stop a deflate bomb before samlify inflates without one. */
const MAX_ENCODED_CHARS = 16_384;
const MAX_XML_BYTES = 64 * 1024;
const MAX_RELAY_STATE_CHARS = 1024;
/** AuthnRequests older than this are refused: the SP makes one per sign-in, just before redirecting. */
const MAX_REQUEST_AGE_MS = 10 * 60_000;
const MAX_CLOCK_SKEW_MS = 60_000;

export class AuthnRequestError extends Error {}

/** The query parameters exactly as the SP encoded them: its signature covers these bytes. */
function rawQueryParams(url: string): Map<string, string> {
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  const params = new Map<string, string>();
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = pair.slice(0, eq);
    if (params.has(name)) throw new AuthnRequestError('duplicate parameter');
    params.set(name, pair.slice(eq + 1));
  }
  return params;
}

/** Base64 values keep a literal '+'; in RelayState it is a form-encoded space. */
function decode(raw: string, plusIsSpace = false): string {
  try {
    return decodeURIComponent(plusIsSpace ? raw.replace(/\+/g, ' ') : raw);
  } catch {
    throw new AuthnRequestError('bad encoding');
  }
}

/**
 * The octet strings the SP may have signed, in the order tried: the query exactly as sent, then
 * the decoded values re-encoded by querystring.stringify. node-saml (the portal's SP) signs the
 * latter but puts the values in the URL with URLSearchParams, which encodes a few characters
 * (space, !'()*~) differently. Either way the signature covers exactly these values.
 */
function signedOctets(
  samlRequest: string,
  relayStateRaw: string | undefined,
  sigAlg: string,
  decoded: { SAMLRequest: string; RelayState: string | null; SigAlg: string },
): string[] {
  const asSent = [
    `SAMLRequest=${samlRequest}`,
    ...(relayStateRaw === undefined ? [] : [`RelayState=${relayStateRaw}`]),
    `SigAlg=${sigAlg}`,
  ].join('&');
  const restringified = querystring.stringify({
    SAMLRequest: decoded.SAMLRequest,
    ...(decoded.RelayState === null ? {} : { RelayState: decoded.RelayState }),
    SigAlg: decoded.SigAlg,
  });
  return restringified === asSent ? [asSent] : [asSent, restringified];
}

/** The pinned SP certificate's public key, parsed once per app. */
const spKeys = new WeakMap<AppContext, KeyObject>();
function spKey(ctx: AppContext): KeyObject {
  let key = spKeys.get(ctx);
  if (!key) {
    key = createPublicKey(ctx.keys.sp.certPem);
    spKeys.set(ctx, key);
  }
  return key;
}

/** RSA-SHA256 by the pinned SP key over exactly these octets. */
function signedBySp(ctx: AppContext, octets: string, signature: Buffer): boolean {
  try {
    return verifySignature('sha256', Buffer.from(octets), spKey(ctx), signature);
  } catch {
    return false;
  }
}

/** The element's own child with this name (not a deeper one). */
function child(parent: Element, namespace: string, localName: string): Element | undefined {
  return Array.from(parent.childNodes).find(
    (n): n is Element =>
      n.nodeType === 1 && (n as Element).localName === localName && (n as Element).namespaceURI === namespace,
  );
}

/** What the IdP reads from a verified, schema-valid AuthnRequest. */
function readAuthnRequest(xml: string) {
  const root = new DOMParser().parseFromString(xml, 'text/xml').documentElement;
  if (!root || root.localName !== 'AuthnRequest' || root.namespaceURI !== PROTOCOL) {
    throw new AuthnRequestError('not an AuthnRequest');
  }
  const optional = (name: string) => (root.hasAttribute(name) ? (root.getAttribute(name) ?? '') : undefined);
  const requested = child(root, PROTOCOL, 'RequestedAuthnContext');
  let requestedAuthnContext: RequestedAuthnContext | undefined;
  if (requested) {
    const comparison = requested.getAttribute('Comparison') || 'exact';
    if (!['exact', 'minimum', 'maximum', 'better'].includes(comparison))
      throw new AuthnRequestError('bad RequestedAuthnContext comparison');
    const classRefs = Array.from(requested.childNodes)
      .filter(
        (n): n is Element =>
          n.nodeType === 1 &&
          (n as Element).localName === 'AuthnContextClassRef' &&
          (n as Element).namespaceURI === ASSERTION,
      )
      .map((n) => (n.textContent ?? '').trim());
    // AuthnContextDeclRef (declarations, not classes) is nothing this IdP writes: nothing meets it.
    requestedAuthnContext = { classRefs, comparison: comparison as RequestedAuthnContext['comparison'] };
  }
  return {
    requestedAuthnContext,
    requestId: root.getAttribute('ID') ?? '',
    issuer: child(root, ASSERTION, 'Issuer')?.textContent ?? undefined,
    acs: optional('AssertionConsumerServiceURL'),
    destination: optional('Destination'),
    issueInstant: root.getAttribute('IssueInstant'),
  };
}

/**
 * Validates an HTTP-Redirect AuthnRequest from the portal's SP: signed with rsa-sha256 by the
 * pinned SP certificate, issued by the SP, fresh, and asking for the registered ACS only.
 */
export async function acceptAuthnRequest(ctx: AppContext, url: string): Promise<PendingAuthnRequest> {
  const params = rawQueryParams(url);
  const samlRequest = params.get('SAMLRequest');
  const sigAlg = params.get('SigAlg');
  const signature = params.get('Signature');
  const relayStateRaw = params.get('RelayState');
  if (!samlRequest || !sigAlg || !signature) throw new AuthnRequestError('unsigned request');
  if (samlRequest.length > MAX_ENCODED_CHARS) throw new AuthnRequestError('request too large');
  if (decode(sigAlg) !== RSA_SHA256) throw new AuthnRequestError('unsupported signature algorithm');
  const relayState = relayStateRaw === undefined ? null : decode(relayStateRaw, true);
  if (relayState !== null && relayState.length > MAX_RELAY_STATE_CHARS) {
    throw new AuthnRequestError('relay state too long');
  }
  let xml: string;
  try {
    const inflated = inflateRawSync(Buffer.from(decode(samlRequest), 'base64'), {
      maxOutputLength: MAX_XML_BYTES,
    });
    xml = inflated.toString('utf8');
  } catch {
    throw new AuthnRequestError('request does not inflate');
  }

  // The signature first: nothing the SP did not sign is parsed.
  const signed = signedOctets(samlRequest, relayStateRaw, sigAlg, {
    SAMLRequest: decode(samlRequest),
    RelayState: relayState,
    SigAlg: decode(sigAlg),
  });
  const signatureBytes = Buffer.from(decode(signature), 'base64');
  if (!signed.some((octets) => signedBySp(ctx, octets, signatureBytes))) {
    throw new AuthnRequestError('signature or schema check failed');
  }
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new AuthnRequestError('DOCTYPE in request');
  try {
    await samlSchemaValidator.validate(xml);
  } catch {
    throw new AuthnRequestError('signature or schema check failed');
  }
  const request = readAuthnRequest(xml);

  const urls = samlUrls(ctx);
  const { requestId, issuer, acs, destination } = request;
  const issueInstant = Date.parse(request.issueInstant ?? '');
  if (!requestId || !/^[A-Za-z_][\w.-]{0,255}$/.test(requestId))
    throw new AuthnRequestError('bad request id');
  if (issuer !== urls.spEntityId) throw new AuthnRequestError('unknown issuer');
  if (acs !== undefined && acs !== urls.acsUrl) throw new AuthnRequestError('unregistered ACS');
  if (destination !== undefined && destination !== urls.ssoUrl)
    throw new AuthnRequestError('wrong destination');
  const age = Date.now() - issueInstant;
  if (!Number.isFinite(age) || age > MAX_REQUEST_AGE_MS || age < -MAX_CLOCK_SKEW_MS) {
    throw new AuthnRequestError('stale request');
  }
  return {
    requestId,
    relayState,
    ...(request.requestedAuthnContext ? { requestedAuthnContext: request.requestedAuthnContext } : {}),
  };
}
