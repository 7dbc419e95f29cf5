// The slapd harness itself (test/support/slapd.ts): the directory it starts has the OUs, the
// portal's bind account has write rights on the vendors' and groups' OUs and no others, the
// password policy refuses, and it stops and starts again with its data.
import { Attribute, Change, Client, InsufficientAccessError, ConstraintViolationError } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slapdInstalled, startSlapd, type Slapd } from './support/slapd';

if (!slapdInstalled) console.warn('SKIPPED slapd-harness.test.ts: needs slapd (apt-get install -y slapd)');

describe.skipIf(!slapdInstalled)('slapd harness', () => {
  let slapd: Slapd;
  const bound = async (dn: string, password: string) => {
    const client = new Client({ url: slapd.url, timeout: 5_000, connectTimeout: 2_000 });
    await client.bind(dn, password);
    return client;
  };

  beforeAll(async () => {
    slapd = await startSlapd({
      policy: { minLength: 12, inHistory: 3 },
      people: [
        { uid: 'brm1', givenName: 'Bea', sn: 'Manager', mail: 'brm1@h.example', password: 'Brm-Secret-1' },
      ],
    });
  });
  afterAll(async () => {
    await slapd?.close();
  });

  it('has the OUs, the people, and a bind account limited to its OUs', async () => {
    const portal = await bound(slapd.bindDn, slapd.bindPassword);
    try {
      const { searchEntries } = await portal.search(slapd.suffix, { scope: 'one', filter: '(ou=*)' });
      expect(searchEntries.map((e) => e.dn).sort()).toEqual(
        ['groups', 'people', 'policies', 'services', 'terminated', 'vendors'].map(
          (ou) => `ou=${ou},${slapd.suffix}`,
        ),
      );
      await portal.add(`uid=v1,${slapd.vendorsDn}`, {
        objectClass: 'inetOrgPerson',
        uid: 'v1',
        cn: 'V One',
        sn: 'One',
      });
      await expect(
        portal.add(`uid=x,${slapd.peopleDn}`, { objectClass: 'inetOrgPerson', uid: 'x', cn: 'X', sn: 'X' }),
      ).rejects.toBeInstanceOf(InsufficientAccessError);
    } finally {
      await portal.unbind();
    }
    const brm = await bound(`uid=brm1,${slapd.peopleDn}`, 'Brm-Secret-1');
    await brm.unbind();
  });

  it('applies the password policy to the portal and can lock an account', async () => {
    expect(slapd.ppolicy).toBe(true);
    const portal = await bound(slapd.bindDn, slapd.bindPassword);
    const dn = `uid=v2,${slapd.vendorsDn}`;
    try {
      await portal.add(dn, { objectClass: 'inetOrgPerson', uid: 'v2', cn: 'V Two', sn: 'Two' });
      const setPassword = (value: string) =>
        portal.modify(
          dn,
          new Change({
            operation: 'replace',
            modification: new Attribute({ type: 'userPassword', values: [value] }),
          }),
        );
      await expect(setPassword('short')).rejects.toBeInstanceOf(ConstraintViolationError);
      await setPassword('A-long-enough-1');
      await (await bound(dn, 'A-long-enough-1')).unbind();
      await portal.modify(
        dn,
        new Change({
          operation: 'replace',
          modification: new Attribute({ type: 'pwdAccountLockedTime', values: ['000001010000Z'] }),
        }),
      );
      await expect(bound(dn, 'A-long-enough-1')).rejects.toThrow();
    } finally {
      await portal.unbind();
    }
  });

  it('stops and starts again with its data', async () => {
    await slapd.stop();
    await expect(bound(slapd.bindDn, slapd.bindPassword)).rejects.toThrow();
    await slapd.start();
    const portal = await bound(slapd.bindDn, slapd.bindPassword);
    const { searchEntries } = await portal.search(slapd.vendorsDn, { scope: 'one', filter: '(uid=v1)' });
    expect(searchEntries).toHaveLength(1);
    await portal.unbind();
  });
});
