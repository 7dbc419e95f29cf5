import type { ManagedUser, ManagedUsersPage } from '@pra/contracts';
import { getManagedUsers } from '@pra/contracts/endpoints/manage-users';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { spyOnQueries } from '../../../test/support/query-spy';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, type TestClient, type TestApp } from '../../../test/support/test-app';
import { addOrganization, assignBrm } from '../../../test/support/world';
import { liveVendorAccount, pinnedOrganizationsScope } from '../../policies/vendor';
import {
  countAccountsAtVersion,
  countVendorsOfOrganizationSets,
  vendorScopeVersion,
} from '../../store/vendor-counts';

// Manage Users' "Managing N users" and the filter's count are kept between requests while nothing
// they count changes (migration 0032, store/vendor-counts.ts). Whatever changes what a count
// sees, by any path (here written straight into the tables, as a script or another instance
// would), the next answer is exact: it equals the whole list's length, counted afresh.

describe.each(testDatabaseKinds)("Manage Users' kept counts on %s", (kind) => {
  let t: TestApp;
  let brm: TestClient;
  let brmId: string;
  const org = { alpha: '', beta: '', gamma: '' };

  beforeAll(async () => {
    t = await createTestApp(kind);
    org.alpha = await addOrganization(t, 'Alpha Count Care');
    org.beta = await addOrganization(t, 'Beta Count Labs');
    org.gamma = await addOrganization(t, 'Gamma Count Health');
    brmId = await createAccount(t, { username: 'brmcounts', type: 'employee', isEmployeeBrm: true });
    await assignBrm(t, brmId, org.alpha);
    await assignBrm(t, brmId, org.beta);
    for (let n = 0; n < 12; n++) {
      const id = await createAccount(t, { username: `counted${n}` });
      await grant(id, [org.alpha, org.beta, org.gamma][n % 3]!);
    }
    brm = await signInAs(t, 'brmcounts');
  });
  afterAll(async () => t?.close());

  const grant = (accountId: string, organizationId: string) =>
    t.ctx.db
      .insertInto('role_grants')
      .values({ account_id: accountId, organization_id: organizationId })
      .execute();
  const idOf = async (username: string) =>
    (
      await t.ctx.db
        .selectFrom('accounts')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).id;

  /** The first page's counts, and the same counted afresh from the whole list. */
  async function counts(filter = '') {
    const page = (await brm.call(getManagedUsers, { query: { page: 1, filter } })).json<ManagedUsersPage>();
    const whole = (await brm.call(getManagedUsers)).json<ManagedUser[]>();
    const matches = (u: ManagedUser) =>
      [u.username, u.email, `${u.givenName} ${u.familyName}`].some((text) =>
        text.toLowerCase().includes(filter.toLowerCase()),
      );
    return {
      answered: { total: page.total, matching: page.matching },
      afresh: { total: whole.length, matching: whole.filter(matches).length },
    };
  }

  async function expectExact(filter = '') {
    const { answered, afresh } = await counts(filter);
    expect(answered).toEqual(afresh);
    return answered;
  }

  it('answers the same counts while nothing changes, without counting again', async () => {
    const before = await expectExact('counted1');
    const spy = spyOnQueries(kind);
    try {
      spy.mockClear();
      const again = (
        await brm.call(getManagedUsers, { query: { page: 1, filter: 'counted1' } })
      ).json<ManagedUsersPage>();
      expect({ total: again.total, matching: again.matching }).toEqual(before);
      const counted = spy.mock.calls.filter((call) => String(call[0]).includes('count(*)'));
      expect(counted).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });

  it('follows a new vendor, a grant, a rename, a status, a removed grant and the BRM assignments', async () => {
    const start = await expectExact();
    // A new vendor of one of the BRM's organizations.
    const id = await createAccount(t, { username: 'countednew' });
    await grant(id, org.alpha);
    expect((await expectExact()).total).toBe(start.total + 1);
    // A second organization of the BRM: the same vendor, counted once.
    await grant(id, org.beta);
    expect((await expectExact()).total).toBe(start.total + 1);
    // A rename moves it in and out of a filter.
    expect((await expectExact('renamedcounter')).matching).toBe(0);
    await t.ctx.db
      .updateTable('accounts')
      .set({ given_name: 'RenamedCounter' })
      .where('id', '=', id)
      .execute();
    expect((await expectExact('renamedcounter')).matching).toBe(1);
    await t.ctx.db
      .updateTable('accounts')
      .set({ email: 'elsewhere@example.test' })
      .where('id', '=', id)
      .execute();
    expect((await expectExact('elsewhere@')).matching).toBe(1);
    // Terminated: no one's to manage.
    await t.ctx.db.updateTable('accounts').set({ status: 'terminated' }).where('id', '=', id).execute();
    expect((await expectExact()).total).toBe(start.total);
    // A removed grant takes a vendor out of the scope.
    const leaving = await idOf('counted0');
    await t.ctx.db.deleteFrom('role_grants').where('account_id', '=', leaving).execute();
    expect((await expectExact()).total).toBe(start.total - 1);
    // The BRM gains an organization, then loses one.
    await assignBrm(t, brmId, org.gamma);
    expect((await expectExact()).total).toBe(start.total - 1 + 4);
    await t.ctx.db
      .deleteFrom('brm_assignments')
      .where('account_id', '=', brmId)
      .where('organization_id', '=', org.gamma)
      .execute();
    expect((await expectExact()).total).toBe(start.total - 1);
    // A vendor deleted outright.
    await t.ctx.db
      .deleteFrom('accounts')
      .where('id', '=', await idOf('counted1'))
      .execute();
    expect((await expectExact()).total).toBe(start.total - 2);
  });

  it('moves the version once per changing transaction: not for a rolled-back change, nor for columns no count reads, nor for unchanged values', async () => {
    const version = () => vendorScopeVersion(t.ctx.db);
    const first = await version();
    await t.ctx.db
      .updateTable('accounts')
      .set({ last_sign_in_at: t.ctx.clock.now() })
      .where('username', 'like', 'counted%')
      .execute();
    expect(await version()).toBe(first);
    // A sign-in writes the names the IdP sent, mostly unchanged; a grant's end date moves no count.
    await t.ctx.db
      .updateTable('accounts')
      .set((eb) => ({ given_name: eb.ref('given_name'), email: eb.ref('email') }))
      .where('username', 'like', 'counted%')
      .execute();
    await t.ctx.db
      .updateTable('role_grants')
      .set({ expires_at: new Date(t.ctx.clock.now().getTime() + 86_400_000) })
      .execute();
    expect(await version()).toBe(first);
    await t.ctx.db
      .transaction()
      .execute(async (tx) => {
        await tx
          .updateTable('accounts')
          .set({ status: 'disabled' })
          .where('username', '=', 'counted2')
          .execute();
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await version()).toBe(first);
    await t.ctx.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('accounts')
        .set({ status: 'disabled' })
        .where('username', 'like', 'counted%')
        .execute();
      await tx
        .updateTable('accounts')
        .set({ status: 'active' })
        .where('username', 'like', 'counted%')
        .execute();
    });
    expect(await version()).toBe(first + 1);
  });

  it.skipIf(kind !== 'postgres')(
    'lets two writers cross on the same vendors without a deadlock: the version moves at commit',
    async () => {
      const [x, y] = [await idOf('counted4'), await idOf('counted5')];
      const first = await vendorScopeVersion(t.ctx.db);
      let oneUpdated!: () => void;
      let twoUpdated!: () => void;
      const oneReady = new Promise<void>((resolve) => (oneUpdated = resolve));
      const twoReady = new Promise<void>((resolve) => (twoUpdated = resolve));
      // One changes x, then waits for y (which two holds); two changes y after one changed x, then
      // commits. A bump taken at the first change would have made two wait for one's version row
      // while one waits for two's y: a deadlock.
      const one = t.ctx.db.transaction().execute(async (tx) => {
        await tx.updateTable('accounts').set({ status: 'disabled' }).where('id', '=', x).execute();
        oneUpdated();
        await twoReady;
        await tx.updateTable('accounts').set({ status: 'disabled' }).where('id', '=', y).execute();
      });
      const two = t.ctx.db.transaction().execute(async (tx) => {
        await oneReady;
        await tx.updateTable('accounts').set({ given_name: 'Crossed' }).where('id', '=', y).execute();
        twoUpdated();
        await sql`select pg_sleep(0.2)`.execute(tx);
      });
      await Promise.all([one, two]);
      expect(await vendorScopeVersion(t.ctx.db)).toBe(first + 2);
      await expectExact();
    },
  );

  describe('BRMs of different organizations counted at once', () => {
    // Each BRM's organizations; `delta` has no vendor at all.
    const sets = {
      alphaOnly: ['alpha'],
      betaOnly: ['beta'],
      alphaGamma: ['alpha', 'gamma'],
      all: ['alpha', 'beta', 'gamma'],
      deltaOnly: ['delta'],
    } as const;
    const brms: Record<string, TestClient> = {};
    const ids = (names: readonly string[]) => names.map((name) => org[name as keyof typeof org] ?? delta);
    let delta = '';

    beforeAll(async () => {
      delta = await addOrganization(t, 'Delta Count Empty');
      // Who is counted or not: a vendor of two organizations (once per set), a terminated vendor
      // and an employee holding a grant (never).
      const both = await createAccount(t, { username: 'countedtwice' });
      await grant(both, org.alpha);
      await grant(both, org.gamma);
      const gone = await createAccount(t, { username: 'countedgone' });
      await grant(gone, org.beta);
      await t.ctx.db.updateTable('accounts').set({ status: 'terminated' }).where('id', '=', gone).execute();
      const employee = await createAccount(t, { username: 'countedemployee', type: 'employee' });
      await grant(employee, org.alpha);
      for (const [name, organizations] of Object.entries(sets)) {
        const id = await createAccount(t, {
          username: `setbrm${name}`,
          type: 'employee',
          isEmployeeBrm: true,
        });
        for (const organization of ids(organizations)) await assignBrm(t, id, organization);
        brms[name] = await signInAs(t, `setbrm${name}`);
      }
    });

    it('one statement counts several sets exactly as each counted alone, with the version it read', async () => {
      const lists = Object.values(sets).map(ids);
      const together = await countVendorsOfOrganizationSets(t.ctx.db, lists, liveVendorAccount('a'));
      const alone = await Promise.all(
        lists.map((list) => countAccountsAtVersion(t.ctx.db, pinnedOrganizationsScope(list, 'a'))),
      );
      expect(together.values).toEqual(alone.map((count) => count.value));
      expect(together.version).toBe(await vendorScopeVersion(t.ctx.db));
      // Nobody is in delta; everyone counted is in the set of all three.
      expect(together.values[4]).toBe(0);
      expect(Math.max(...together.values)).toBe(together.values[3]);
      await expect(countVendorsOfOrganizationSets(t.ctx.db, [], liveVendorAccount('a'))).rejects.toThrow(
        RangeError,
      );
    });

    it('BRMs asking at once, right after a change, each get their own exact count, read together', async () => {
      await t.ctx.db
        .updateTable('accounts')
        .set({ given_name: 'Moved' })
        .where('username', '=', 'counted0')
        .execute();
      const spy = spyOnQueries(kind);
      try {
        spy.mockClear();
        const pages = await Promise.all(
          Object.values(brms).map((client) =>
            client.call(getManagedUsers, { query: { page: 1 } }).then((res) => res.json<ManagedUsersPage>()),
          ),
        );
        const batched = spy.mock.calls.filter((call) => String(call[0]).includes('organization_bits'));
        expect(batched.length).toBeGreaterThanOrEqual(1);
        for (const [i, client] of Object.values(brms).entries()) {
          const whole = (await client.call(getManagedUsers)).json<ManagedUser[]>();
          expect(pages[i]!.total).toBe(whole.length);
        }
      } finally {
        spy.mockRestore();
      }
    });
  });
});
