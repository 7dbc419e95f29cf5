import { describe, expect, it } from 'vitest';
import { GOOD_PASSWORD, makePasswordRequirements } from '../../test/password-policy';
import { evaluatePassword } from './evaluate-password';

const policy = makePasswordRequirements(['jdoe']);
const commonList = new Set(['p030710p$e4o']);

describe('evaluatePassword', () => {
  it('is valid only with the policy known, every rule passed and the confirmation equal', () => {
    const good = { newPassword: GOOD_PASSWORD, confirmPassword: GOOD_PASSWORD };
    expect(evaluatePassword(good, policy, commonList).isValid).toBe(true);
    // The common-password list not loaded yet: that rule is not known to pass.
    expect(evaluatePassword(good, policy).isValid).toBe(false);
    const common = { newPassword: 'P030710p$e4o', confirmPassword: 'P030710p$e4o' };
    expect(evaluatePassword(common, policy, commonList).checks.filter((c) => !c.ok)).toEqual([
      { rule: 'notCommon', message: 'Not a commonly used password', ok: false },
    ]);
    expect(
      evaluatePassword({ newPassword: GOOD_PASSWORD, confirmPassword: GOOD_PASSWORD }, undefined).isValid,
    ).toBe(false);
    const mismatch = evaluatePassword({ newPassword: GOOD_PASSWORD, confirmPassword: 'other' }, policy);
    expect(mismatch).toMatchObject({ isValid: false, matches: false });
  });

  it('refuses an empty password and one failing a rule', () => {
    expect(evaluatePassword({ newPassword: '', confirmPassword: '' }, policy).isValid).toBe(false);
    const short = evaluatePassword({ newPassword: 'Ab1!', confirmPassword: 'Ab1!' }, policy);
    expect(short.isValid).toBe(false);
    expect(short.checks.find((c) => c.rule === 'minLength')).toMatchObject({
      ok: false,
      message: 'Min length: 12',
    });
  });

  it('lists a blocked term found in the password as a failed rule', () => {
    const withTerm = 'xJDOE-Secure-99x';
    const result = evaluatePassword({ newPassword: withTerm, confirmPassword: withTerm }, policy);
    expect(result.isValid).toBe(false);
    expect(result.checks.at(-1)).toMatchObject({ ok: false, message: 'Contains blocked term: jdoe' });
  });
});
