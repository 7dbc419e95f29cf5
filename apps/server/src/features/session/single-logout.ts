import { verify } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import type { SAML } from '@node-saml/node-saml';
import { routes } from '@pra/contracts';
import { DOMParser } from '@xmldom/xmldom';
import type { AppContext } from '../../platform/app-context';
import { recordAudit } from '../../identity/audit';
import { spEndpoints } from '../../identity/saml-sp';
import * as sessions from '../../store/sessions';

/** Why a single-logout message was refused, in words fit for the log and the audit (no document). */
export class LogoutRefused extends Error {}

/** Signature algorithms of the HTTP-Redirect binding we accept: RSA with the SHA-2 family. */
const REDIRECT_ALGORITHMS: Record<string, string> = {
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256': 'sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384': 'sha384',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512': 'sha512',
};

/** The raw (still percent-encoded) value of each parameter of a query string; repeated ones refused. */
function rawParameters(rawQuery: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const pair of rawQuery.split('&')) {
    if (!pair) continue;
    const at = pair.indexOf('=');
    const name = decodeURIComponent(at < 0 ? pair : pair.slice(0, at));
    if (found.has(name)) throw new LogoutRefused(`${name} given twice`);
    found.set(name, at < 0 ? '' : pair.slice(at + 1));
  }
  return found;
}

const pem = (body: string) =>
  `-----BEGIN CERTIFICATE-----\n${body.replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----\n`;

/**
 * Checks the HTTP-Redirect binding's signature (SAML bindings §3.4.4.1) over the octets as they
 * were sent: `SAMLRequest` or `SAMLResponse`, then `RelayState` if present, then `SigAlg`, with one
 * of the IdP's signing certificates. Unlike node-saml's validateRedirectAsync, a message without a
 * signature is refused: anyone can send a browser to this address.
 */
export function checkRedirectSignature(
  rawQuery: string,
  signingCerts: string[],
): 'SAMLRequest' | 'SAMLResponse' {
  const raw = rawParameters(rawQuery);
  const kinds = (['SAMLRequest', 'SAMLResponse'] as const).filter((name) => raw.has(name));
  const kind = kinds[0];
  if (kinds.length !== 1 || !kind) throw new LogoutRefused('neither one SAMLRequest nor one SAMLResponse');
  const signature = raw.get('Signature');
  const sigAlgRaw = raw.get('SigAlg');
  if (!signature || !sigAlgRaw) throw new LogoutRefused('the message is not signed');
  const hash = REDIRECT_ALGORITHMS[decodeURIComponent(sigAlgRaw)];
  if (!hash)
    throw new LogoutRefused(`signature algorithm ${decodeURIComponent(sigAlgRaw).slice(0, 100)} refused`);
  const relayState = raw.get('RelayState');
  const signed = `${kind}=${raw.get(kind) ?? ''}${relayState === undefined ? '' : `&RelayState=${relayState}`}&SigAlg=${sigAlgRaw}`;
  const signatureBytes = Buffer.from(
    decodeURIComponent(signature.replace(/\+/g, '%20')).replace(/ /g, '+'),
    'base64',
  );
  const valid = signingCerts.some((cert) => {
    try {
      return verify(hash, Buffer.from(signed), pem(cert), signatureBytes);
    } catch {
      return false;
    }
  });
  if (!valid) throw new LogoutRefused('the signature is not the IdP’s');
  return kind;
}

/** The deflated message's root element, refusing DTDs and a Destination other than ours. */
function messageRoot(encoded: string, sloUrl: string): Element {
  let xml: string;
  try {
    xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
  } catch {
    throw new LogoutRefused('the message is not a deflated SAML message');
  }
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new LogoutRefused('DOCTYPE or ENTITY in the message');
  const root = new DOMParser({
    errorHandler: { warning: () => {}, error: () => {}, fatalError: () => {} },
  }).parseFromString(xml, 'text/xml').documentElement;
  if (!root) throw new LogoutRefused('the message is not XML');
  const destination = root.getAttribute('Destination');
  if (destination && destination !== sloUrl)
    throw new LogoutRefused('Destination is not our logout endpoint');
  return root;
}

export interface LogoutQuery {
  SAMLRequest?: string | undefined;
  SAMLResponse?: string | undefined;
  RelayState?: string | undefined;
  SigAlg?: string | undefined;
  Signature?: string | undefined;
}

/** Where the browser goes after a logout that needs no answer to the IdP: the landing page. */
const HOME = routes.home;

/**
 * A LogoutRequest the IdP sent (IdP-initiated logout, or another SP's logout fanned out by the
 * IdP): once its signature, issuer, validity and destination are checked, every portal session of
 * that NameID (and session index, when given) ends, audited, and the browser goes back to the
 * IdP with a signed LogoutResponse (or home when the IdP's metadata has no logout service).
 */
export async function answerLogoutRequest(
  ctx: AppContext,
  sp: SAML,
  query: LogoutQuery,
  rawQuery: string,
  clientAddress: string,
): Promise<string> {
  const { sloUrl } = spEndpoints(ctx.config.publicUrl);
  if (checkRedirectSignature(rawQuery, ctx.idp.signingCerts) !== 'SAMLRequest') {
    throw new LogoutRefused('not a LogoutRequest');
  }
  const root = messageRoot(query.SAMLRequest ?? '', sloUrl);
  if (root.localName !== 'LogoutRequest') throw new LogoutRefused('not a LogoutRequest');
  let profile;
  try {
    ({ profile } = await sp.validateRedirectAsync(query as Record<string, string>, rawQuery));
  } catch (error) {
    throw new LogoutRefused(error instanceof Error ? error.message.slice(0, 200) : 'invalid LogoutRequest');
  }
  if (!profile?.nameID) throw new LogoutRefused('LogoutRequest without a NameID');
  const sessionIndexes = Array.from(
    root.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:protocol', 'SessionIndex'),
  )
    .map((element) => element.textContent?.trim() ?? '')
    .filter(Boolean);
  const nameID = profile.nameID;
  await ctx.db.transaction().execute(async (tx) => {
    const ended = await sessions.revokeBySamlSubject(tx, { nameID, sessionIndexes }, ctx.clock.now());
    const accounts = new Set(ended.map((row) => row.accountId));
    for (const accountId of accounts) {
      await recordAudit(tx, {
        action: 'signout',
        outcome: 'success',
        target: { id: accountId, username: nameID.slice(0, 64) },
        clientAddress,
        details: { initiatedBy: 'idp', sessions: ended.filter((row) => row.accountId === accountId).length },
      });
    }
  });
  if (!ctx.idp.logoutUrl) return HOME;
  return sp.getLogoutResponseUrlAsync(profile, query.RelayState ?? '', {}, true);
}

/**
 * The IdP's LogoutResponse to the portal's LogoutRequest. The portal's session ended before the
 * browser left for the IdP, so whatever the response says, the browser goes home; a response that
 * is unsigned, not the IdP's or not a success is only logged (the IdP may still hold its session).
 */
export async function acceptLogoutResponse(
  ctx: AppContext,
  sp: SAML,
  query: LogoutQuery,
  rawQuery: string,
): Promise<{ next: string; problem: string | null }> {
  try {
    if (checkRedirectSignature(rawQuery, ctx.idp.signingCerts) !== 'SAMLResponse') {
      throw new LogoutRefused('not a LogoutResponse');
    }
    messageRoot(query.SAMLResponse ?? '', spEndpoints(ctx.config.publicUrl).sloUrl);
    await sp.validateRedirectAsync(query as Record<string, string>, rawQuery);
    return { next: HOME, problem: null };
  } catch (error) {
    return {
      next: HOME,
      problem: error instanceof Error ? error.message.slice(0, 200) : 'invalid LogoutResponse',
    };
  }
}
