import { describe, expect, it } from 'vitest';
import {
  checkPassword,
  defaultPasswordComplexity,
  passwordMeetsPolicy,
  type PasswordRequirements,
} from './password-policy';

const policy: PasswordRequirements = {
  status: 'success',
  Password_Complexity: defaultPasswordComplexity,
  blockedTerms: ['jdoe', 'Password', 'General Hospital'],
  rejectCommonPasswords: false,
};

const failing = (pw: string) =>
  checkPassword(pw, policy)
    .filter((c) => !c.ok)
    .map((c) => c.message);

describe('checkPassword', () => {
  it('accepts a password meeting every rule', () => {
    expect(failing('Tr4vel-Lantern-9')).toEqual([]);
    expect(passwordMeetsPolicy('Tr4vel-Lantern-9', policy)).toBe(true);
  });
  it('names each rule broken with the spec message', () => {
    expect(failing('short')).toEqual([
      'Min length: 12',
      'Min uppercase characters: 1',
      'Min number of symbols: 1',
      'Min amount of numbers: 1',
      'Min character types: 3',
    ]);
    expect(failing('Aaa-bbbb-cccc-1')).toEqual(['Max repeated characters: 2']);
    expect(failing(`Aa1-${'x'.repeat(130)}`)).toContain('Max length: 128');
  });
  it('matches blocked terms as case-insensitive substrings', () => {
    expect(failing('My-JDOE-secret-42')).toEqual(['Contains blocked term: jdoe']);
    expect(failing('xPASSWORDx-12Z')).toEqual(['Contains blocked term: Password']);
    expect(passwordMeetsPolicy('Tr4vel-Lantern-9', { ...policy, blockedTerms: ['LANTERN'] })).toBe(false);
  });
  it('counts letters beyond ASCII', () => {
    expect(failing('Ärger-über-Öl-77')).toEqual([]);
  });
  it('shows the common-password rule when the policy has it, unmet until the list is known', () => {
    const withRule = { ...policy, rejectCommonPasswords: true };
    const list = new Set(['qwerty-123-abc!']);
    const rule = (pw: string, common?: Set<string>) =>
      checkPassword(pw, withRule, common).find((check) => check.rule === 'notCommon');
    expect(rule('Tr4vel-Lantern-9', list)).toEqual({
      rule: 'notCommon',
      message: 'Not a commonly used password',
      ok: true,
    });
    expect(rule('QWERTY-123-abc!', list)?.ok).toBe(false);
    expect(rule('Tr4vel-Lantern-9')?.ok).toBe(false);
    expect(checkPassword('Tr4vel-Lantern-9', policy).some((check) => check.rule === 'notCommon')).toBe(false);
  });
});
