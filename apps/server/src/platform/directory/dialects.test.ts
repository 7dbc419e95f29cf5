// The attribute dialects without a directory: Active Directory's unicodePwd and
// userAccountControl (not run against a real AD or Samba DC here: see docs/design/directory.md),
// and RFC 4514 DN escaping.
import type { Change } from 'ldapts';
import { describe, expect, it } from 'vitest';
import {
  activeDirectory,
  groupAccountName,
  openldap,
  unicodePwd,
  UF_ACCOUNTDISABLE,
  UF_NORMAL_ACCOUNT,
  withDisabledBit,
  PERMANENTLY_LOCKED,
} from './dialects';
import { childDn, escapeRdnValue, normalizeDn } from './dn';

const values = (changes: Change[]) =>
  changes.map((c) => [c.operation, c.modification.type, c.modification.values.map(String)]);

describe('Active Directory dialect', () => {
  it('writes unicodePwd as the quoted password in UTF-16LE', () => {
    const bytes = unicodePwd('Pässword1"');
    expect(bytes.toString('utf16le')).toBe('"Pässword1""');
    expect([...bytes.subarray(0, 4)]).toEqual([0x22, 0x00, 0x50, 0x00]);
    const [change] = activeDirectory.passwordChange('x');
    expect(change?.operation).toBe('replace');
    expect(change?.modification.type).toBe('unicodePwd');
    expect(Buffer.from(change?.modification.values[0] as Buffer)).toEqual(unicodePwd('x'));
  });

  it('creates accounts disabled and flips only the ACCOUNTDISABLE bit', () => {
    const created = activeDirectory.newAccount({
      username: 'jdoe1',
      givenName: 'Jane',
      familyName: 'Doe',
      email: 'j@a.example',
    });
    expect(created).toMatchObject({
      sAMAccountName: 'jdoe1',
      cn: 'jdoe1',
      userAccountControl: String(UF_NORMAL_ACCOUNT | UF_ACCOUNTDISABLE),
    });
    const dontExpire = 0x10000;
    const entry = {
      dn: 'cn=jdoe1,ou=v',
      userAccountControl: String(UF_NORMAL_ACCOUNT | UF_ACCOUNTDISABLE | dontExpire),
    };
    expect(activeDirectory.isEnabled(entry)).toBe(false);
    expect(values(activeDirectory.enabledChanges(entry, true))).toEqual([
      ['replace', 'userAccountControl', [String(UF_NORMAL_ACCOUNT | dontExpire)]],
    ]);
    expect(activeDirectory.enabledChanges(entry, false)).toEqual([]);
    expect(withDisabledBit(512, false)).toBe(514);
    expect(withDisabledBit(514, true)).toBe(512);
  });

  it('finds accounts by sAMAccountName with the filter escaped and groups by DN', () => {
    expect(activeDirectory.accountFilter('a*)(x')).toBe(
      '(&(objectClass=user)(sAMAccountName=a\\2a\\29\\28x))',
    );
    expect(activeDirectory.memberFilter('CN=a\\,b,OU=v')).toBe(
      '(&(objectClass=group)(member=CN=a\\5c,b,OU=v))',
    );
    expect(activeDirectory.newGroup('PRA - Vendor Access - A - BR')).toMatchObject({
      objectClass: ['top', 'group'],
    });
    expect(activeDirectory.placeholderMember).toBeNull();
  });

  it('names a group’s sAMAccountName without the characters AD refuses, distinct per role name', () => {
    expect(groupAccountName('PRA - Vendor Access - A - BR')).toBe('PRA - Vendor Access - A - BR');
    const comma = groupAccountName('PRA - Vendor Access - Contoso, Inc. - BR');
    expect(comma).toMatch(/^PRA - Vendor Access - Contoso_ Inc\. - BR-[0-9a-f]{8}$/);
    expect(groupAccountName('PRA - Vendor Access - Contoso; Inc. - BR')).not.toBe(comma);
    expect(activeDirectory.newGroup('PRA - Vendor Access - A=B - BR')).toMatchObject({
      cn: 'PRA - Vendor Access - A=B - BR',
      sAMAccountName: expect.stringMatching(/^PRA - Vendor Access - A_B - BR-/),
    });
    expect(groupAccountName(`PRA - ${'x'.repeat(300)}`).length).toBeLessThanOrEqual(256);
  });
});

describe('OpenLDAP dialect', () => {
  it('locks with pwdAccountLockedTime and unlocks by removing it', () => {
    const locked = { dn: 'uid=a,ou=v', pwdAccountLockedTime: PERMANENTLY_LOCKED };
    expect(openldap.isEnabled(locked)).toBe(false);
    expect(values(openldap.enabledChanges(locked, true))).toEqual([['delete', 'pwdAccountLockedTime', []]]);
    expect(values(openldap.enabledChanges({ dn: 'uid=a,ou=v' }, false))).toEqual([
      ['replace', 'pwdAccountLockedTime', [PERMANENTLY_LOCKED]],
    ]);
  });
});

describe('RFC 4514 DN escaping', () => {
  it('escapes the special characters, outer spaces and a leading #', () => {
    expect(escapeRdnValue('A, Inc.+"x"<y>;z\\=')).toBe('A\\, Inc.\\+\\"x\\"\\<y\\>\\;z\\\\\\=');
    expect(escapeRdnValue(' #lead#trail ')).toBe('\\ #lead#trail\\ ');
    expect(escapeRdnValue('#x')).toBe('\\#x');
    expect(escapeRdnValue('nul\0')).toBe('nul\\00');
    expect(childDn('cn', 'PRA - Vendor Access - A, B - BR', 'ou=groups,dc=h')).toBe(
      'cn=PRA - Vendor Access - A\\, B - BR,ou=groups,dc=h',
    );
    expect(normalizeDn('UID=Jdoe1, OU=Vendors,dc=H')).toBe('uid=jdoe1,ou=vendors,dc=h');
  });
});
