import { describe, expect, it } from 'vitest';
import { groupDisplayName, roleName } from './access';
import { fullName } from './session';

describe('groupDisplayName', () => {
  it('strips the role prefix and suffix', () => {
    expect(groupDisplayName('PRA - Vendor Access - Acme Imaging - BR')).toBe('Acme Imaging');
  });
  it('leaves other names alone', () => {
    expect(groupDisplayName('Other group')).toBe('Other group');
  });
  it('round-trips roleName', () => {
    expect(groupDisplayName(roleName('X - BR'))).toBe('X - BR');
  });
});

describe('fullName', () => {
  it('joins given and family name', () => {
    expect(fullName({ givenName: 'Ada', familyName: 'Lovelace' })).toBe('Ada Lovelace');
  });
  it('is empty when either part is empty', () => {
    expect(fullName({ givenName: 'Ada', familyName: '' })).toBe('');
    expect(fullName({ givenName: '', familyName: 'Lovelace' })).toBe('');
  });
});
