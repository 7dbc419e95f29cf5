// The Active Directory dialect (LDAP_PROFILE=active-directory) against a real Samba AD domain
// controller the test provisions (support/samba-dc.ts), over LDAPS with a least-rights service
// account: every identity-store operation, twice where it must be idempotent, read back with the
// domain administrator: sAMAccountName and names, unicodePwd (a bind with it; Samba's complexity
// refusal as the portal's 400 message), userAccountControl's ACCOUNTDISABLE bit, group membership,
// terminate's move to the terminated OU; reconciliation's listing.
import { readFileSync } from 'node:fs';
import { Client } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createIdentityStore } from '../src/platform/directory/create-store';
import { PasswordRefusedError, type IdentityStore } from '../src/platform/directory/identity-store';
import { sambaDcMissing, startSambaDc, type SambaDc } from './support/samba-dc';

const missing = await sambaDcMissing();
if (missing.length > 0) console.warn(`SKIPPED samba-ad.test.ts: needs ${missing.join(', ')}`);

const ROLE = 'PRA - Vendor Access - Contoso (R&D), Inc. - BR';
const PASSWORD = 'Sturdy-Harbor-Lamp-48';
const UF_ACCOUNTDISABLE = 0x2;

describe.skipIf(missing.length > 0)('Active Directory dialect against Samba’s AD DC', () => {
  let dc: SambaDc;
  let store: IdentityStore;

  beforeAll(async () => {
    dc = await startSambaDc();
    store = createIdentityStore(
      loadConfig({
        PRA_MODE: 'standalone',
        DATA_DIR: '/tmp/pra-samba-unused',
        LOG_LEVEL: 'silent',
        ...dc.env,
      }),
    );
  }, 240_000);

  afterAll(async () => {
    await store?.close();
    await dc?.close();
  });

  /** The vendor's entry as the domain administrator reads it. */
  async function entry(username: string) {
    const client = new Client({
      url: dc.url,
      timeout: 10_000,
      tlsOptions: { ca: [readFileSync(dc.caFile)] },
    });
    await client.bind(dc.adminDn, dc.adminPassword);
    try {
      const { searchEntries } = await client.search(dc.baseDn, {
        filter: `(sAMAccountName=${username})`,
        attributes: [
          'sAMAccountName',
          'givenName',
          'sn',
          'mail',
          'displayName',
          'userAccountControl',
          'memberOf',
        ],
      });
      const found = searchEntries[0];
      if (!found) return null;
      return {
        dn: found.dn.toLowerCase(),
        mail: String(found.mail),
        displayName: String(found.displayName),
        disabled: (Number(found.userAccountControl) & UF_ACCOUNTDISABLE) !== 0,
        memberOf: [found.memberOf ?? []].flat().map((dn) => String(dn).toLowerCase()),
      };
    } finally {
      await client.unbind();
    }
  }

  it('answers its health check over LDAPS with the service account', async () => {
    expect(await store.health()).toEqual({ ok: true, reason: null });
  });

  it('creates the group and the account once, updating the account’s mail, disabled and without a password', async () => {
    await store.ensureGroup(ROLE);
    await store.ensureGroup(ROLE);
    const account = {
      username: 'vvaldez',
      givenName: 'Vic',
      familyName: 'Valdez',
      email: 'vic@contoso.example',
    };
    await store.ensureAccount(account);
    await store.ensureAccount({ ...account, email: 'vic.valdez@contoso.example' });
    expect(await entry('vvaldez')).toMatchObject({
      dn: `cn=vvaldez,${dc.vendorsDn}`.toLowerCase(),
      mail: 'vic.valdez@contoso.example',
      displayName: 'Vic Valdez',
      disabled: true,
    });
    expect(await store.checkPassword('vvaldez', PASSWORD)).toBe(false);
  }, 60_000);

  it('sets the password with unicodePwd; a too simple one is refused with a message a person understands', async () => {
    const refused = await store.setPassword('vvaldez', 'abc').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PasswordRefusedError);
    expect((refused as Error).message).toMatch(/refused this password/);
    await store.setPassword('vvaldez', PASSWORD);
    await store.setEnabled('vvaldez', true);
    await store.setEnabled('vvaldez', true);
    expect((await entry('vvaldez'))?.disabled).toBe(false);
    expect(await store.checkPassword('vvaldez', PASSWORD)).toBe(true);
    expect(await store.checkPassword('vvaldez', 'Not-The-Password-1')).toBe(false);
  }, 60_000);

  it('makes the groups exactly the granted roles, disables with userAccountControl, and terminates', async () => {
    await store.setRoles('vvaldez', [ROLE]);
    await store.setRoles('vvaldez', [ROLE]);
    const groupDn = `cn=${ROLE.replace(/[,]/g, '\\,')},${dc.groupsDn}`.toLowerCase();
    expect((await entry('vvaldez'))?.memberOf).toEqual([groupDn]);
    await store.setRoles('vvaldez', []);
    expect((await entry('vvaldez'))?.memberOf).toEqual([]);
    await store.setRoles('vvaldez', [ROLE]);

    await store.setEnabled('vvaldez', false);
    expect((await entry('vvaldez'))?.disabled).toBe(true);
    expect(await store.checkPassword('vvaldez', PASSWORD)).toBe(false);
    await store.setEnabled('vvaldez', true);

    await store.terminate('vvaldez');
    await store.terminate('vvaldez');
    expect(await entry('vvaldez')).toMatchObject({
      dn: `cn=vvaldez,${dc.terminatedDn}`.toLowerCase(),
      disabled: true,
      memberOf: [],
    });
    expect(await store.listAccounts()).toEqual([
      expect.objectContaining({ username: 'vvaldez', enabled: false, groups: [] }),
    ]);
    expect((await store.listGroups()).get(ROLE)).toEqual([]);
  }, 60_000);
});
