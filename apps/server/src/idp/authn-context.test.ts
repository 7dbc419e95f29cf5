import { describe, expect, it } from 'vitest';
import { allowedMethods, methodMeets } from './authn-context';
import { PASSWORD_PROTECTED_TRANSPORT, PHISHING_RESISTANT_CLASS, REFEDS_MFA } from './saml-response';

describe("the built-in IdP's reading of RequestedAuthnContext (SAML core 3.3.2.2.1)", () => {
  it('lets anything through without a request', () => {
    expect(allowedMethods(undefined)).toEqual({ passcode: true, push: true, key: true });
  });

  it('exact: only the methods whose class is named', () => {
    expect(allowedMethods({ classRefs: [PHISHING_RESISTANT_CLASS], comparison: 'exact' })).toEqual({
      passcode: false,
      push: false,
      key: true,
    });
    expect(allowedMethods({ classRefs: [REFEDS_MFA], comparison: 'exact' })).toEqual({
      passcode: true,
      push: true,
      key: false,
    });
    expect(allowedMethods({ classRefs: [PASSWORD_PROTECTED_TRANSPORT], comparison: 'exact' })).toEqual({
      passcode: false,
      push: false,
      key: false,
    });
  });

  it('minimum, better and maximum follow the order password < MFA < phishing-resistant; unknown classes meet nothing', () => {
    expect(methodMeets({ classRefs: [REFEDS_MFA], comparison: 'minimum' }, 'totp')).toBe(true);
    expect(methodMeets({ classRefs: [REFEDS_MFA], comparison: 'minimum' }, 'webauthn')).toBe(true);
    expect(methodMeets({ classRefs: [REFEDS_MFA], comparison: 'better' }, 'totp')).toBe(false);
    expect(methodMeets({ classRefs: [REFEDS_MFA], comparison: 'better' }, 'webauthn')).toBe(true);
    expect(methodMeets({ classRefs: [REFEDS_MFA], comparison: 'maximum' }, 'webauthn')).toBe(false);
    expect(methodMeets({ classRefs: [REFEDS_MFA], comparison: 'maximum' }, 'push')).toBe(true);
    expect(methodMeets({ classRefs: ['urn:example:other'], comparison: 'minimum' }, 'webauthn')).toBe(false);
  });
});
