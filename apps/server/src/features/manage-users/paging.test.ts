import { managedUserSortKeys, pagingMessages, type ManagedUser, type ManagedUsersPage } from '@pra/contracts';
import { getManagedUsers } from '@pra/contracts/endpoints/manage-users';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/support/databases';
import { allPages, referenceRows } from '../../../test/support/paging';
import { createAccount, signInAs } from '../../../test/support/sign-in';
import { createTestApp, type TestClient, type TestApp } from '../../../test/support/test-app';
import { addOrganization, assignBrm } from '../../../test/support/world';

// Manage Users paged by the server answers, page after page, exactly the rows the whole list
// answered filtered and sorted as the browser did: for every filter field, every sortable column
// both ways, a BRM's scope kept through all of them.

const givenNames = ['Ann', 'bob', 'Carla', 'ann', 'Dmitri', 'Eve', 'Zoe', 'anna'];
const familyNames = ['Smith', 'jones', 'SMITHERS', 'Brown', 'Ng', 'Okafor'];
const statuses = ['active', 'active', 'disabled', 'pendingActivation'] as const;

const filterTexts = (u: ManagedUser) => [
  u.username,
  u.email,
  u.givenName,
  u.familyName,
  `${u.givenName} ${u.familyName}`,
];
const statusText = (u: ManagedUser) =>
  u.status === 'pendingActivation' ? 'Pending activation' : u.active ? 'Enabled' : 'Disabled';
const sortValues: Record<(typeof managedUserSortKeys)[number], (u: ManagedUser) => string> = {
  username: (u) => u.username,
  givenName: (u) => u.givenName,
  familyName: (u) => u.familyName,
  email: (u) => u.email,
  status: statusText,
};
// Each filter field, across name parts, case, LIKE's wildcards (literal here), and nothing.
const filters = ['', 'ann', 'SMITH', 'ann smith', '@beta.example', 'v1', '%', '_', 'zzz-none'];

describe.each(testDatabaseKinds)('Manage Users pages on %s', (kind) => {
  let t: TestApp;
  const c: Record<string, TestClient> = {};
  beforeAll(async () => {
    t = await createTestApp(kind);
    const orgs = [
      await addOrganization(t, 'Alpha Care'),
      await addOrganization(t, 'Beta Labs'),
      await addOrganization(t, 'Gamma Health'),
    ];
    const brm = await createAccount(t, { username: 'brmtwo', type: 'employee', isEmployeeBrm: true });
    await assignBrm(t, brm, orgs[0]!);
    await assignBrm(t, brm, orgs[1]!);
    await createAccount(t, { username: 'adminpages', type: 'employee', isAdmin: true });
    for (let n = 0; n < 37; n++) {
      const status = n === 36 ? 'terminated' : statuses[n % statuses.length]!;
      const { id } = await t.ctx.db
        .insertInto('accounts')
        .values({
          username: `v${n}${n % 3 === 0 ? 'X' : 'y'}`,
          given_name: givenNames[n % givenNames.length]!,
          family_name: familyNames[n % familyNames.length]!,
          email: `v${n}@${['alpha', 'beta', 'gamma'][n % 3]}.example`,
          type: 'vendor',
          status,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // Vendors of one, two or no organizations; Gamma's alone are outside the BRM's scope.
      const held = [orgs[n % 3]!, ...(n % 5 === 0 ? [orgs[(n + 1) % 3]!] : [])].slice(
        0,
        n % 11 === 10 ? 0 : 2,
      );
      for (const organization of held) {
        await t.ctx.db
          .insertInto('role_grants')
          .values({ account_id: id, organization_id: organization })
          .execute();
      }
    }
    c.brm = await signInAs(t, 'brmtwo');
    c.admin = await signInAs(t, 'adminpages');
  });
  afterAll(async () => t?.close());

  for (const who of ['brm', 'admin'] as const) {
    it(`${who}: every filter and sort answers the unpaged list's rows, page by page`, async () => {
      const whole = await c[who]!.call(getManagedUsers);
      expect(whole.statusCode).toBe(200);
      const everyone = whole.json<ManagedUser[]>();
      expect(everyone.length).toBeGreaterThan(10);
      for (const filter of filters) {
        for (const sort of managedUserSortKeys) {
          for (const direction of ['asc', 'desc'] as const) {
            const expected = referenceRows(everyone, filter, filterTexts, sortValues[sort], direction);
            const answer = await allPages<ManagedUser>(
              c[who]!,
              getManagedUsers,
              { filter, sort, direction },
              7,
            );
            expect(answer.total).toBe(everyone.length);
            expect(answer.matching).toBe(expected.length);
            expect(answer.rows, `${filter} ${sort} ${direction}`).toEqual(expected);
          }
        }
      }
    });
  }

  it('keeps a BRM to its organizations through every page, filter and sort', async () => {
    const gammaOnly = await t.ctx.db
      .selectFrom('accounts as a')
      .select('a.username')
      .where('a.type', '=', 'vendor')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('role_grants as g')
              .innerJoin('organizations as o', 'o.id', 'g.organization_id')
              .whereRef('g.account_id', '=', 'a.id')
              .where('o.name', 'in', ['Alpha Care', 'Beta Labs'])
              .select('g.account_id'),
          ),
        ),
      )
      .execute();
    expect(gammaOnly.length).toBeGreaterThan(3);
    const outside = new Set(gammaOnly.map((r) => r.username));
    for (const filter of ['', 'gamma', 'v', 'ann']) {
      for (const sort of managedUserSortKeys) {
        const answer = await allPages<ManagedUser>(
          c.brm!,
          getManagedUsers,
          { filter, sort, direction: 'desc' },
          4,
        );
        expect(answer.rows.filter((u) => outside.has(u.username))).toEqual([]);
      }
    }
  });

  it('answers the first page by username without a sort, and the last page when asked past it', async () => {
    const whole = (await c.admin!.call(getManagedUsers)).json<ManagedUser[]>();
    const first = (await c.admin!.call(getManagedUsers, { query: { page: 1 } })).json<ManagedUsersPage>();
    expect(first).toMatchObject({ page: 1, size: 10, total: whole.length, matching: whole.length });
    expect(first.items).toEqual(whole.slice(0, 10));
    const last = Math.ceil(whole.length / 10);
    const past = (await c.admin!.call(getManagedUsers, { query: { page: 999 } })).json<ManagedUsersPage>();
    expect(past.page).toBe(last);
    expect(past.items).toEqual(whole.slice((last - 1) * 10));
    const none = (
      await c.admin!.call(getManagedUsers, { query: { filter: 'zzz-none', page: 3 } })
    ).json<ManagedUsersPage>();
    expect(none).toEqual({ items: [], total: whole.length, matching: 0, page: 1, size: 10 });
  });

  it('refuses bad paging input with 400 and a message naming it', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ page: '0' }, pagingMessages.page],
      [{ page: 'two' }, pagingMessages.page],
      [{ page: '1.5' }, pagingMessages.page],
      [{ size: '0' }, pagingMessages.size],
      [{ size: '101' }, pagingMessages.size],
      [{ sort: 'password_hash' }, pagingMessages.sort(managedUserSortKeys)],
      [{ direction: 'up' }, pagingMessages.direction],
      [{ filter: 'x'.repeat(256) }, pagingMessages.filter],
      [{ filter: 'a\u001fb' }, pagingMessages.filter],
    ];
    for (const [query, message] of cases) {
      const res = await c.admin!.call(getManagedUsers, { query: query });
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(JSON.stringify(res.json()), JSON.stringify(query)).toContain(message);
    }
    const unknown = await c.admin!.call(getManagedUsers, { query: { offset: '5' } as never });
    expect(unknown.statusCode).toBe(400);
  });
});
