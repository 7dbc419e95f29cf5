// The LDAP identity store against a real OpenLDAP (Debian's slapd, started by the test): every
// operation of docs/design/directory.md's table, each run twice to show it is idempotent.
import { Attribute, Change, Client } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slapdInstalled, startSlapd, type Slapd } from '../../../test/support/slapd';
import { DirectoryUnavailableError, PasswordRefusedError } from './identity-store';
import { LdapIdentityStore } from './ldap-store';

if (!slapdInstalled) console.warn('SKIPPED ldap-store.test.ts: needs slapd (apt-get install -y slapd)');

const ROLE_A = 'PRA - Vendor Access - Acme, Inc. + #1 - BR';
const ROLE_B = 'PRA - Vendor Access - Beta Medical - BR';
const OTHER = 'Clinical Engineering (not the portal)';

describe.skipIf(!slapdInstalled)('LDAP identity store (OpenLDAP)', () => {
  let slapd: Slapd;
  let store: LdapIdentityStore;
  let clock = 0;
  const admin = async () => {
    const client = new Client({ url: slapd.url, timeout: 5_000 });
    await client.bind(slapd.adminDn, slapd.adminPassword);
    return client;
  };
  const members = async (role: string) => {
    const client = await admin();
    try {
      const { searchEntries } = await client.search(slapd.groupsDn, {
        filter: `(cn=${role.replace(/[*()\\]/g, (c) => `\\${c.charCodeAt(0).toString(16)}`)})`,
        attributes: ['member'],
      });
      const value = searchEntries[0]?.member ?? [];
      return (Array.isArray(value) ? value : [value]).map(String).filter(Boolean);
    } finally {
      await client.unbind();
    }
  };

  beforeAll(async () => {
    slapd = await startSlapd({ policy: { minLength: 10, inHistory: 3 } });
    store = new LdapIdentityStore({
      url: slapd.url,
      profile: 'openldap',
      bindDn: slapd.bindDn,
      bindPassword: slapd.bindPassword,
      vendorsDn: slapd.vendorsDn,
      groupsDn: slapd.groupsDn,
      terminatedDn: slapd.terminatedDn,
      startTls: false,
      timeoutMs: 2_000,
      healthCacheMs: 5_000,
      now: () => clock,
    });
  });
  afterAll(async () => {
    await slapd?.close();
  });

  /** The health once it reads `ok` (the probe runs behind the last answer), or after 20 s. */
  const healthBecomes = async (ok: boolean) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const health = await store.health();
      if (health.ok === ok || Date.now() > deadline) return health;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const vendor = { username: 'jdoe1', givenName: 'Jane', familyName: 'Doe', email: 'jane@acme.example' };

  it('ensures a group and an account, twice, and updates names that differ', async () => {
    await store.ensureGroup(ROLE_A);
    await store.ensureGroup(ROLE_A);
    await store.ensureAccount(vendor);
    await store.ensureAccount(vendor);
    await store.ensureAccount({ ...vendor, familyName: 'Doe-Smith', email: 'jane.ds@acme.example' });
    const [account] = await store.listAccounts();
    expect(account).toMatchObject({ username: 'jdoe1', enabled: false, groups: [] });
    const client = await admin();
    const { searchEntries } = await client.search(slapd.vendorsDn, { filter: '(uid=jdoe1)' });
    await client.unbind();
    expect(searchEntries[0]).toMatchObject({
      sn: 'Doe-Smith',
      mail: 'jane.ds@acme.example',
      displayName: 'Jane Doe-Smith',
    });
  });

  it('sets and checks a password by binding, and turns the directory policy refusal into words', async () => {
    await store.setEnabled('jdoe1', true);
    await store.setPassword('jdoe1', 'First-Long-Pass-1');
    await store.setPassword('jdoe1', 'First-Long-Pass-1x');
    expect(await store.checkPassword('jdoe1', 'First-Long-Pass-1x')).toBe(true);
    expect(await store.checkPassword('jdoe1', 'wrong-password')).toBe(false);
    expect(await store.checkPassword('jdoe1', '')).toBe(false);
    expect(await store.checkPassword('nobody', 'First-Long-Pass-1x')).toBe(false);
    const refused = store.setPassword('jdoe1', 'short');
    await expect(refused).rejects.toBeInstanceOf(PasswordRefusedError);
    await expect(refused).rejects.toThrow(/too short or too simple/);
    await expect(store.setPassword('jdoe1', 'First-Long-Pass-1')).rejects.toThrow(/used before/);
  });

  it('sets roles to exactly the granted groups, leaving other groups alone', async () => {
    const client = await admin();
    const userDn = `uid=jdoe1,${slapd.vendorsDn}`;
    await client.add(`cn=${OTHER},${slapd.groupsDn}`, {
      objectClass: 'groupOfNames',
      cn: OTHER,
      member: userDn,
    });
    await client.unbind();
    await store.setRoles('jdoe1', [ROLE_A, ROLE_B]);
    await store.setRoles('jdoe1', [ROLE_A, ROLE_B]);
    expect(await members(ROLE_A)).toHaveLength(1);
    expect(await members(ROLE_B)).toHaveLength(1);
    await store.setRoles('jdoe1', [ROLE_B]);
    expect(await members(ROLE_A)).toEqual([]);
    expect(await members(OTHER)).toEqual([userDn]);
    const [account] = await store.listAccounts();
    expect(account?.groups).toEqual([ROLE_B]);
  });

  it('disables and enables: a disabled account cannot bind', async () => {
    await store.setEnabled('jdoe1', false);
    await store.setEnabled('jdoe1', false);
    expect(await store.checkPassword('jdoe1', 'First-Long-Pass-1x')).toBe(false);
    await store.setEnabled('jdoe1', true);
    await store.setEnabled('jdoe1', true);
    expect(await store.checkPassword('jdoe1', 'First-Long-Pass-1x')).toBe(true);
  });

  it('terminates: no portal group, disabled, moved to the terminated OU, twice', async () => {
    await store.terminate('jdoe1');
    await store.terminate('jdoe1');
    expect(await members(ROLE_B)).toEqual([]);
    expect(await store.checkPassword('jdoe1', 'First-Long-Pass-1x')).toBe(false);
    const client = await admin();
    const { searchEntries } = await client.search(slapd.terminatedDn, {
      filter: '(uid=jdoe1)',
      attributes: ['1.1'],
    });
    await client
      .modify(
        `cn=${OTHER},${slapd.groupsDn}`,
        new Change({ operation: 'delete', modification: new Attribute({ type: 'member' }) }),
      )
      .catch(() => {});
    await client.unbind();
    expect(searchEntries).toHaveLength(1);
  });

  it('reports health from a bind and a base read, cached, and unavailability as such', async () => {
    expect(await store.health()).toEqual({ ok: true, reason: null });
    await slapd.stop();
    try {
      expect((await store.health()).ok).toBe(true); // cached
      clock += 6_000;
      // Past its time the last answer serves once more, while the probe finds nobody listening.
      expect((await store.health()).ok).toBe(true);
      const health = await healthBecomes(false);
      expect(health.ok).toBe(false);
      expect(health.reason).not.toBeNull();
      await expect(store.setPassword('jdoe1', 'Another-Long-Pass-2')).rejects.toBeInstanceOf(
        DirectoryUnavailableError,
      );
      await expect(store.ensureGroup(ROLE_A)).rejects.toBeInstanceOf(DirectoryUnavailableError);
    } finally {
      await slapd.start();
    }
    clock += 6_000;
    expect((await store.health()).ok).toBe(false); // the last answer, while the probe runs
    expect((await healthBecomes(true)).ok).toBe(true);
  });

  it('answers from its last health at once while the next probe waits on a frozen directory, then reports the outage', async () => {
    expect(await store.health()).toEqual({ ok: true, reason: null }); // answered just now
    await slapd.freeze();
    try {
      clock += 6_000;
      // The probe now waits up to the timeout (2 s here, 5 s by default) on a bind nobody answers;
      // the callers (the readiness check, every page's current-user record) get the last answer
      // without waiting: it is there before a timer of 0 ms fires.
      const waited = new Promise((resolve) => setTimeout(() => resolve('waited'), 0));
      expect(await Promise.race([store.health(), waited])).toEqual({ ok: true, reason: null });
      // Once the probe has timed out, the outage is reported (the whole answer shown if not).
      expect(await healthBecomes(false)).toMatchObject({ ok: false });
    } finally {
      slapd.thaw();
    }
    clock += 6_000;
    expect((await healthBecomes(true)).ok).toBe(true);
  });

  it('stops believing its last answer when no probe has answered for longer than a probe can take', async () => {
    expect(await store.health()).toEqual({ ok: true, reason: null }); // answered just now
    await slapd.freeze();
    try {
      // Past the cache (5 s) and three timeouts (3 × 2 s) without an answer: not believed.
      clock += 5_000 + 3 * 2_000;
      expect(await store.health()).toEqual({ ok: false, reason: 'no answer to the health check for 11 s' });
    } finally {
      slapd.thaw();
    }
    expect((await healthBecomes(true)).ok).toBe(true);
  });
});
