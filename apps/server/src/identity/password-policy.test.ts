import { describe, expect, it } from 'vitest';
import { checkPassword, COMMON_PASSWORD_MESSAGE } from '@pra/contracts';
import { commonPasswords, passwordPolicy, passwordProblems } from './password-policy';

const config = { PASSWORD_BLOCKED_WORDS: ['password'], HOSPITAL_NAME: 'General Hospital' };
const account = { given_name: 'Al', family_name: 'Morgan', email: 'alex.morgan@vendor.example' };

describe('passwordPolicy', () => {
  it('has the default complexity rules', () => {
    expect(passwordPolicy(config, '').Password_Complexity).toEqual({
      minLength: 12,
      maxLength: 128,
      minUpperAlpha: 1,
      minLowerAlpha: 1,
      minNumeric: 1,
      minSpecialChars: 1,
      minCharTypes: 3,
      maxRepeatChars: 2,
      minAlpha: 0,
    });
  });
  it('blocks the username, names, email local part and configured words; skips short terms', () => {
    expect(passwordPolicy(config, 'amorgan', account).blockedTerms).toEqual([
      'amorgan',
      'Morgan',
      'alex.morgan',
      'password',
      'General Hospital',
    ]);
    expect(passwordPolicy(config, 'ab').blockedTerms).toEqual(['password', 'General Hospital']);
  });
});

describe('passwordProblems', () => {
  const policy = passwordPolicy(config, 'amorgan', account);
  it('accepts a password meeting every rule', () => {
    expect(passwordProblems('Tr1cky-Zebra-Lamp', policy)).toEqual([]);
  });
  it('lists every failed rule with the spec messages', () => {
    expect(passwordProblems('aaab', policy)).toEqual([
      'Min length: 12',
      'Min uppercase characters: 1',
      'Min number of symbols: 1',
      'Min amount of numbers: 1',
      'Max repeated characters: 2',
      'Min character types: 3',
    ]);
    expect(passwordProblems('My-Morgan-Pass1', policy)).toEqual(['Contains blocked term: Morgan']);
  });
  it('refuses common passwords with the rule the checklist shows, whatever their case', () => {
    expect(policy.rejectCommonPasswords).toBe(true);
    expect(passwordProblems('P030710p$e4o', policy)).toEqual([COMMON_PASSWORD_MESSAGE]);
    expect(passwordProblems('p030710P$E4O', policy)).toEqual([COMMON_PASSWORD_MESSAGE]);
  });
  it('refuses exactly what the returned rules say, nothing more', () => {
    for (const password of ['P030710p$e4o', 'Tr1cky-Zebra-Lamp', 'aaab', 'My-Morgan-Pass1', 'Password1!x']) {
      const shown = checkPassword(password, policy, commonPasswords())
        .filter((check) => !check.ok)
        .map((check) => check.message);
      expect(passwordProblems(password, policy)).toEqual(shown);
    }
  });
});
