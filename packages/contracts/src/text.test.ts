import { describe, expect, it } from 'vitest';
import { activateBody, decodeBody } from './activation';
import { approveOrDenyBody } from './approvals';
import { passwordRequirementsQuery } from './password-policy';
import { emailInUseBody, orgsByDomainQuery, registrationBody } from './registration';
import { clientLogBody } from './system';
import { containsUnstorableText, hasLoneSurrogate, loneSurrogatePaths, NUL_MESSAGE } from './text';
import { textFieldMessages } from './text-fields';

const nul = 'a\u0000b';

describe('NUL characters in request strings', () => {
  it.each([
    [
      'registration names',
      registrationBody,
      { firstName: nul, lastName: 'L', email: 'a@b.example', org: 'O' },
    ],
    ['registration org', registrationBody, { firstName: 'F', lastName: 'L', email: 'a@b.example', org: nul }],
    [
      'registration email',
      registrationBody,
      { firstName: 'F', lastName: 'L', email: `a${nul}@b.example`, org: 'O' },
    ],
    ['email-in-use', emailInUseBody, { email: `x\u0000@b.example` }],
    ['org lookup domain', orgsByDomainQuery, { domain: nul }],
    [
      'approval comment',
      approveOrDenyBody,
      { decision: 'DENY', requestId: '00000000-0000-4000-8000-000000000000', comment: nul },
    ],
    ['activation code', decodeBody, { claimCode: nul }],
    ['new password', activateBody, { claimCode: 'ABCD', newPassword: `Long-Enough-1${nul}` }],
    ['password-requirements username', passwordRequirementsQuery, { username: nul }],
    ['client log', clientLogBody, { errorMessage: nul }],
  ] as const)('refuses a NUL in %s', (_name, schema, input) => {
    const parsed = schema.safeParse(input);
    expect(parsed.success).toBe(false);
    // Person-typed text fields refuse NUL with their own message, as every control character.
    const messages = parsed.error?.issues.map((issue) => issue.message) ?? [];
    expect(messages.some((m) => m === NUL_MESSAGE || m === textFieldMessages.invalidCharacters)).toBe(true);
  });

  it('finds a NUL anywhere in a parsed form', () => {
    expect(containsUnstorableText({ a: 'x', b: ['y', nul] })).toBe(true);
    expect(containsUnstorableText({ a: 'x', b: ['y'], c: 1 })).toBe(false);
  });
});

describe('lone surrogates in request strings', () => {
  it('tells a lone surrogate from a pair', () => {
    expect(['x\ud800', '\udc00x', 'a\udc00\ud800b'].map(hasLoneSurrogate)).toEqual([true, true, true]);
    expect(['x\ud83d\ude00', 'plain', ''].map(hasLoneSurrogate)).toEqual([false, false, false]);
  });

  it('names the path of every string (values and keys) holding one', () => {
    expect(loneSurrogatePaths({ a: 'ok', b: ['y', 'x\ud800'], 'k\udfff': 1, c: { d: '\udc00' } })).toEqual([
      ['b', 1],
      ['k\udfff'],
      ['c', 'd'],
    ]);
    expect(containsUnstorableText({ a: ['x\ud800'] })).toBe(true);
    expect(containsUnstorableText({ a: ['x\ud83d\ude00'] })).toBe(false);
  });
});
