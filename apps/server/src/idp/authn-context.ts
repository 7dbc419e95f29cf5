import type { RequestedAuthnContext } from './authn-request';
import {
  authnContextClass,
  PASSWORD_PROTECTED_TRANSPORT,
  PHISHING_RESISTANT_CLASS,
  REFEDS_MFA,
  type SignInMethod,
} from './saml-response';

/** The classes this IdP writes, weakest first (SAML core 3.3.2.2.1's comparisons need an order). */
const STRENGTH: ReadonlyMap<string, number> = new Map([
  [PASSWORD_PROTECTED_TRANSPORT, 0],
  [REFEDS_MFA, 1],
  [PHISHING_RESISTANT_CLASS, 2],
]);

/**
 * Whether a sign-in by `method` meets the SP's `RequestedAuthnContext` (SAML core 3.3.2.2.1):
 * `exact`, the class it writes is one of those asked for; `minimum`, at least as strong as one of
 * them; `better`, stronger than one of them; `maximum`, no stronger than one of them. Classes this
 * IdP does not know have no place in the order: only `exact` can name them, and it never writes
 * them. No request: anything meets it.
 */
export function methodMeets(requested: RequestedAuthnContext | undefined, method: SignInMethod): boolean {
  if (!requested) return true;
  const written = authnContextClass(method);
  if (requested.comparison === 'exact') return requested.classRefs.includes(written);
  const mine = STRENGTH.get(written) ?? -1;
  const known = requested.classRefs.flatMap((ref) => {
    const strength = STRENGTH.get(ref);
    return strength === undefined ? [] : [strength];
  });
  switch (requested.comparison) {
    case 'minimum':
      return known.some((s) => mine >= s);
    case 'better':
      return known.some((s) => mine > s);
    case 'maximum':
      return known.some((s) => mine <= s);
  }
}

/** Which of the IdP's second factors may answer this request. */
export function allowedMethods(requested: RequestedAuthnContext | undefined) {
  return {
    passcode: methodMeets(requested, 'totp'),
    push: methodMeets(requested, 'push'),
    key: methodMeets(requested, 'webauthn'),
  };
}
