import querystring from 'node:querystring';
import { inflateRawSync } from 'node:zlib';
import type { AppContext } from '../platform/app-context';
import { samlEntities, samlUrls } from './saml-entities';

/**
 * What the IdP keeps of an accepted AuthnRequest until it answers it. The answer always goes to
 * the registered ACS (`samlUrls`), the only one a request may ask for.
 */
export interface PendingAuthnRequest {
  requestId: string;
  relayState: string | null;
}

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

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
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
  try {
    inflateRawSync(Buffer.from(decode(samlRequest), 'base64'), { maxOutputLength: MAX_XML_BYTES });
  } catch {
    throw new AuthnRequestError('request does not inflate');
  }

  const query = { SAMLRequest: decode(samlRequest), SigAlg: decode(sigAlg), Signature: decode(signature) };
  const { idp, sp } = samlEntities(ctx);
  const parse = (octetString: string) => idp.parseLoginRequest(sp, 'redirect', { query, octetString });
  const parsed = await parse(
    [
      `SAMLRequest=${samlRequest}`,
      ...(relayStateRaw === undefined ? [] : [`RelayState=${relayStateRaw}`]),
      `SigAlg=${sigAlg}`,
    ].join('&'),
  )
    // node-saml (the portal's SP) signs querystring.stringify() of the values but puts them in the
    // URL with URLSearchParams, which encodes a few characters (space, !'()*~) differently; so
    // also try the signed form of the decoded values. The signature still covers exactly them.
    .catch(() =>
      parse(
        querystring.stringify({
          SAMLRequest: query.SAMLRequest,
          ...(relayState === null ? {} : { RelayState: relayState }),
          SigAlg: query.SigAlg,
        }),
      ),
    )
    .catch(() => {
      throw new AuthnRequestError('signature or schema check failed');
    });

  const urls = samlUrls(ctx);
  const request = parsed.extract.request ?? {};
  const requestId = single(request.id);
  const issuer = single(parsed.extract.issuer);
  const acs = single(request.assertionConsumerServiceUrl);
  const destination = single(request.destination);
  const issueInstant = Date.parse(single(request.issueInstant) ?? '');
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
  return { requestId, relayState };
}
