import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../test/support/databases';
import { createAccount } from '../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../test/support/test-app';
import { addOrganization, addRequest, assignBrm } from '../../test/support/world';
import { loadActor, type Actor } from './actor';
import * as request from './request';
import * as vendor from './vendor';

// The query conditions (scopeOf) list exactly what the pure rules (can) allow, for every kind of
// actor, on each database engine: Approvals and Manage Users list with the one, the actions check
// with the other.

describe.each(testDatabaseKinds)('policy scopes on %s', (kind) => {
  let t: TestApp;
  const actors = new Map<string, Actor>();

  beforeAll(async () => {
    t = await createTestApp(kind);
    const [a, b, c] = await Promise.all(['Org A', 'Org B', 'Org C'].map((name) => addOrganization(t, name)));
    const grant = (accountId: string, organizationId: string) =>
      t.ctx.db
        .insertInto('role_grants')
        .values({
          account_id: accountId,
          organization_id: organizationId,
          granted_by: null,
          request_item_id: null,
        })
        .execute();
    const vendors: [string, string[], ('active' | 'pendingActivation' | 'disabled' | 'terminated')?][] = [
      ['va', [a!]],
      ['vb', [b!]],
      ['vab', [a!, b!]],
      ['vc', [c!]],
      ['vnone', []],
      ['vpending', [a!], 'pendingActivation'],
      ['vdisabled', [a!], 'disabled'],
      ['vgone', [a!], 'terminated'],
    ];
    for (const [username, organizations, status] of vendors) {
      const id = await createAccount(t, { username, ...(status ? { status } : {}) });
      for (const organization of organizations) await grant(id, organization);
    }
    const people: [string, Parameters<typeof createAccount>[1], string[]][] = [
      ['vendor', { username: 'actorvendor' }, []],
      ['brmOfA', { username: 'brma', type: 'employee', isEmployeeBrm: true }, [a!]],
      ['brmOfB', { username: 'brmb', type: 'employee', isEmployeeBrm: true }, [b!]],
      ['brmOfAandB', { username: 'brmab', type: 'employee', isEmployeeBrm: true }, [a!, b!]],
      ['admin', { username: 'admin', type: 'employee', isAdmin: true }, []],
      [
        'adminAndBrmOfA',
        { username: 'adminbrm', type: 'employee', isAdmin: true, isEmployeeBrm: true },
        [a!],
      ],
      ['employeeWithoutBrm', { username: 'employee', type: 'employee' }, [a!]],
      [
        'disabledBrmOfA',
        { username: 'brmoff', type: 'employee', isEmployeeBrm: true, status: 'disabled' },
        [a!],
      ],
      [
        'terminatedAdmin',
        { username: 'admingone', type: 'employee', isAdmin: true, status: 'terminated' },
        [],
      ],
    ];
    for (const [name, fields, assigned] of people) {
      const id = await createAccount(t, fields);
      for (const organization of assigned) await assignBrm(t, id, organization);
      const account = await t.ctx.db
        .selectFrom('accounts')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      actors.set(name, await loadActor(t.ctx.db, account));
    }
    await addRequest(t, 'New Account', [[a!, 'pending']]);
    await addRequest(t, 'New Account', [
      [b!, 'pending'],
      [c!, 'pending'],
    ]);
    await addRequest(t, 'New Account', [[c!, 'pending']]);
  });
  afterAll(async () => t?.close());

  it('reads a BRM’s assignments into the actor, nobody else’s', () => {
    expect([...actors.get('brmOfAandB')!.managedOrganizationIds]).toHaveLength(2);
    expect(actors.get('employeeWithoutBrm')!.managedOrganizationIds.size).toBe(0);
    expect(actors.get('disabledBrmOfA')!.isActive).toBe(false);
  });

  it('vendor.scopeOf and vendor.pinnedScopeOf list exactly the vendors can(actor, manage) allows', async () => {
    const all = await t.ctx.db
      .selectFrom('accounts as a')
      .leftJoin('role_grants as g', 'g.account_id', 'a.id')
      .select(['a.username', 'a.status', 'g.organization_id'])
      .where('a.type', '=', 'vendor')
      .execute();
    const held = new Map<string, { status: (typeof all)[number]['status']; organizationIds: string[] }>();
    for (const row of all) {
      const entry = held.get(row.username) ?? { status: row.status, organizationIds: [] };
      if (row.organization_id) entry.organizationIds.push(row.organization_id);
      held.set(row.username, entry);
    }
    const byKey = new Map<string, string[]>();
    for (const [name, actor] of actors) {
      const allowed = [...held]
        .filter(([, v]) => vendor.can(actor, 'manage', v))
        .map(([username]) => username)
        .sort();
      const pinned = vendor.pinnedScopeOf(actor, 'a');
      for (const condition of [vendor.scopeOf(actor, 'a'), pinned.condition]) {
        const listed = await t.ctx.db
          .selectFrom('accounts as a')
          .select('a.username')
          .where(condition)
          .execute();
        expect({ name, usernames: listed.map((r) => r.username).sort() }).toEqual({
          name,
          usernames: allowed,
        });
      }
      // Two actors with one key manage the same vendors (counts are kept under the key).
      expect({ name, usernames: byKey.get(pinned.key) ?? allowed }).toEqual({ name, usernames: allowed });
      byKey.set(pinned.key, allowed);
    }
    expect(byKey.size).toBeGreaterThan(2);
    // Not vacuous: a BRM of A sees some vendors and not others.
    const brm = actors.get('brmOfA')!;
    expect(
      [...held]
        .filter(([, v]) => vendor.can(brm, 'manage', v))
        .map(([u]) => u)
        .sort(),
    ).toEqual(['va', 'vab', 'vdisabled', 'vpending']);
  });

  it('request.scopeOf lists exactly the items can(actor, decide) allows', async () => {
    const items = await t.ctx.db
      .selectFrom('request_items as i')
      .select(['i.id', 'i.organization_id'])
      .execute();
    expect(items).toHaveLength(4);
    for (const [name, actor] of actors) {
      const listed = await t.ctx.db
        .selectFrom('request_items as i')
        .select('i.id')
        .where(request.scopeOf(actor, 'i'))
        .execute();
      const allowed = items
        .filter((i) =>
          request.can(actor, 'decide', { organizationId: i.organization_id, beneficiaryId: null }),
        )
        .map((i) => i.id);
      expect({ name, ids: listed.map((r) => r.id).sort() }).toEqual({ name, ids: allowed.sort() });
    }
  });
});
