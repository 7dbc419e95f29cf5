import { createPrivateKey, randomUUID, type KeyObject } from 'node:crypto';
import type { AppContext } from '../platform/app-context';
import type { PendingAuthnRequest } from './authn-request';
import { samlUrls } from './saml-entities';
import { signEnveloped } from './xml-signature';
import { element, serialize, type XmlElement } from './xml-tree';

/** The assertion is good for five minutes, and from a minute ago to absorb clock skew. */
const VALID_FOR_MS = 5 * 60_000;
const SKEW_MS = 60_000;

export interface SignedInAccount {
  username: string;
  givenName: string;
  familyName: string;
  email: string;
  /** How the second factor was given: the assertion's AuthnContextClassRef follows it. */
  method?: SignInMethod;
}

/** The IdP's second factors: an authenticator app's passcode, a push, a security key or passkey. */
export type SignInMethod = 'totp' | 'push' | 'webauthn';

export const PASSWORD_PROTECTED_TRANSPORT =
  'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport';

/** REFEDS MFA: a password and an authenticator app or push (https://refeds.org/profile/mfa). */
export const REFEDS_MFA = 'https://refeds.org/profile/mfa';
/**
 * A security key or passkey with user verification: phishing-resistant. The value is the ACR
 * "phr" registered for phishing-resistant authentication (OpenID EAP ACR Values).
 */
export const PHISHING_RESISTANT_CLASS = 'phr';

/** The AuthnContextClassRef the built-in IdP writes for a sign-in. */
export function authnContextClass(method: SignedInAccount['method']): string {
  if (method === 'webauthn') return PHISHING_RESISTANT_CLASS;
  if (method === 'totp' || method === 'push') return REFEDS_MFA;
  return PASSWORD_PROTECTED_TRANSPORT;
}

const newId = () => `_${randomUUID()}`;

const NAMESPACES = {
  samlp: 'urn:oasis:names:tc:SAML:2.0:protocol',
  saml: 'urn:oasis:names:tc:SAML:2.0:assertion',
};

function attribute(name: string, value: string): XmlElement {
  return element(
    'saml:Attribute',
    [
      ['Name', name],
      ['NameFormat', 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic'],
    ],
    [element('saml:AttributeValue', [['xsi:type', 'xs:string']], [value])],
  );
}

/** The Response's envelope around its status (and assertion, when the sign-in succeeded). */
function responseEnvelope(
  ctx: AppContext,
  pending: PendingAuthnRequest,
  status: XmlElement,
  assertion?: XmlElement,
) {
  const urls = samlUrls(ctx);
  return element(
    'samlp:Response',
    [
      ['ID', newId()],
      ['Version', '2.0'],
      ['IssueInstant', new Date().toISOString()],
      ['Destination', urls.acsUrl],
      ['InResponseTo', pending.requestId],
    ],
    [element('saml:Issuer', [], [urls.idpEntityId]), status, ...(assertion ? [assertion] : [])],
    NAMESPACES,
  );
}

/** The Response and its Assertion, unsigned, as a tree (values are escaped when it is written). */
function responseTree(
  ctx: AppContext,
  pending: PendingAuthnRequest,
  account: SignedInAccount,
): { response: XmlElement; assertion: XmlElement } {
  const urls = samlUrls(ctx);
  const now = Date.now();
  const at = (offset: number) => new Date(now + offset).toISOString();
  const issuer = () => element('saml:Issuer', [], [urls.idpEntityId]);
  const assertion = element(
    'saml:Assertion',
    [
      ['ID', newId()],
      ['Version', '2.0'],
      ['IssueInstant', at(0)],
    ],
    [
      issuer(),
      element(
        'saml:Subject',
        [],
        [
          element(
            'saml:NameID',
            [['Format', 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified']],
            [account.username],
          ),
          element(
            'saml:SubjectConfirmation',
            [['Method', 'urn:oasis:names:tc:SAML:2.0:cm:bearer']],
            [
              element('saml:SubjectConfirmationData', [
                ['NotOnOrAfter', at(VALID_FOR_MS)],
                ['Recipient', urls.acsUrl],
                ['InResponseTo', pending.requestId],
              ]),
            ],
          ),
        ],
      ),
      element(
        'saml:Conditions',
        [
          ['NotBefore', at(-SKEW_MS)],
          ['NotOnOrAfter', at(VALID_FOR_MS)],
        ],
        [element('saml:AudienceRestriction', [], [element('saml:Audience', [], [urls.spEntityId])])],
      ),
      element(
        'saml:AuthnStatement',
        [
          ['AuthnInstant', at(0)],
          ['SessionIndex', newId()],
        ],
        [
          element(
            'saml:AuthnContext',
            [],
            [element('saml:AuthnContextClassRef', [], [authnContextClass(account.method)])],
          ),
        ],
      ),
      element(
        'saml:AttributeStatement',
        [],
        [
          attribute('givenName', account.givenName),
          attribute('sn', account.familyName),
          attribute('mail', account.email),
        ],
      ),
    ],
    { xsi: 'http://www.w3.org/2001/XMLSchema-instance', xs: 'http://www.w3.org/2001/XMLSchema' },
  );
  const response = responseEnvelope(
    ctx,
    pending,
    element(
      'samlp:Status',
      [],
      [element('samlp:StatusCode', [['Value', 'urn:oasis:names:tc:SAML:2.0:status:Success']])],
    ),
    assertion,
  );
  return { response, assertion };
}

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
 * The base64 SAMLResponse for the SP's ACS: the Assertion is signed, then the whole Response
 * (xml-signature.ts: RSA-SHA256, SHA-256 digests, exclusive c14n of the tree) with the IdP key,
 * because the portal's SP wants both; then the document is written once.
 */
export function createSignedResponse(
  ctx: AppContext,
  pending: PendingAuthnRequest,
  account: SignedInAccount,
): string {
  const key = signingKey(ctx);
  const { response, assertion } = responseTree(ctx, pending, account);
  signEnveloped(response, assertion, key);
  signEnveloped(response, response, key);
  return Buffer.from(serialize(response)).toString('base64');
}

/**
 * The signed answer when the SP's RequestedAuthnContext cannot be met (SAML core 3.3.2.2.1): a
 * Response without an assertion, status Responder with the second-level NoAuthnContext.
 */
export function createSignedNoAuthnContext(ctx: AppContext, pending: PendingAuthnRequest): string {
  const status = element(
    'samlp:Status',
    [],
    [
      element(
        'samlp:StatusCode',
        [['Value', 'urn:oasis:names:tc:SAML:2.0:status:Responder']],
        [element('samlp:StatusCode', [['Value', 'urn:oasis:names:tc:SAML:2.0:status:NoAuthnContext']])],
      ),
    ],
  );
  const response = responseEnvelope(ctx, pending, status);
  signEnveloped(response, response, signingKey(ctx));
  return Buffer.from(serialize(response)).toString('base64');
}
