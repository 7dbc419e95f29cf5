import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '../../test/support/databases';
import type { DatabaseHandle } from '../platform/db';
import { selectAuditEvents } from '../store/audit';
import { matchesFilter, pageManagedVendors, type VendorSortKey } from '../store/accounts';
import { countAccountsAtVersion } from '../store/vendor-counts';
import { countDecidableItemsMatching, pageDecidableItems, type ApprovalSortKey } from '../store/requests';
import { loadActor, type Actor, type Principal } from './actor';
import * as request from './request';
import * as vendor from './vendor';

// The lists' statements, as their owners write them with the policies' scopes, on a hospital's
// worth of data (PostgreSQL only: the plans are PostgreSQL's): 500 organizations, 50,000 vendors,
// 5,000 pending request items among 50,000 decided, 2,000,000 audit events. No statement reads a
// table that grows with vendors, requests or events from end to end (no Seq Scan on it): each
// filter and sort has its index (migrations 0001, 0006, 0013, 0030).

const BIG_TABLES = new Set(['accounts', 'role_grants', 'requests', 'request_items', 'audit_events']);

/** Builds the data in the test's own database, with the indexes the migrations made. */
const BUILD = `
insert into organizations (name) select 'Org ' || g from generate_series(0, 499) g;
insert into accounts (username, given_name, family_name, email, type, status)
  select 'v' || k, 'Given' || (k % 997), 'Family' || (k % 1009), 'v' || k || '@org' || (k % 500) || '.example',
    'vendor', (array['active', 'active', 'active', 'disabled', 'pendingActivation', 'terminated'])[1 + k % 6]
  from generate_series(0, 49999) k;
insert into accounts (username, email, type, is_employee_brm, status) values
  ('brmten', 'brmten@hospital.example', 'employee', true, 'active'),
  ('brmbackup', 'brmbackup@hospital.example', 'employee', true, 'active'),
  ('adminbig', 'adminbig@hospital.example', 'employee', false, 'active');
insert into accounts (username, email, type, is_employee_brm, status)
  select 'brmbig' || g, 'brmbig' || g || '@hospital.example', 'employee', true, 'active' from generate_series(1, 10) g;
update accounts set is_admin = true where username = 'adminbig';
create temporary table org_by_number as select (substr(name, 5))::int as n, id from organizations;
create temporary table vendor_by_number as
  select (substr(username, 2))::int as k, id from accounts where type = 'vendor';
create index on vendor_by_number (k);
create index on org_by_number (n);
analyze vendor_by_number, org_by_number;
insert into role_grants (account_id, organization_id)
  select v.id, o.id from vendor_by_number v join org_by_number o on o.n = v.k % 500;
insert into role_grants (account_id, organization_id)
  select v.id, o.id from vendor_by_number v join org_by_number o on o.n = (v.k * 7 + 3) % 500
  where (v.k * 7 + 3) % 500 <> v.k % 500;
insert into brm_assignments (account_id, organization_id)
  select a.id, o.id from accounts a, org_by_number o where a.username = 'brmten' and o.n < 10;
-- brmbig1 to brmbig10: the BRMs of the ten largest organizations (490 to 499), 1,500 vendors
-- each (the average organization has about 200), all ten BRMs of the same ten, as in
-- npm run bench:scale.
insert into role_grants (account_id, organization_id)
  select v.id, o.id from vendor_by_number v join org_by_number o on o.n = 490 + v.k % 10
  where v.k < 15000
  on conflict do nothing;
insert into brm_assignments (account_id, organization_id)
  select a.id, o.id from accounts a, org_by_number o where a.username like 'brmbig%' and o.n >= 490;
insert into brm_assignments (account_id, organization_id, kind)
  select a.id, o.id, case when o.n < 20 then 'primary' else 'backup' end
  from accounts a, org_by_number o where a.username = 'brmbackup' and o.n between 10 and 29;
insert into requests (type, status, beneficiary_id, first_name, last_name, email, created_at)
  select (array['New Account', 'Add Access', 'Remove Access'])[1 + r % 3], case when r < 5000 then 'pending' else 'approved' end,
    case when r % 3 = 0 then null else v.id end,
    'Given' || (r % 97), 'Family' || (r % 89), 'r' || r || '@x.example', timestamptz '2025-01-01' + r * interval '1 minute'
  from generate_series(0, 54999) r join vendor_by_number v on v.k = r % 50000;
insert into request_items (request_id, organization_id, operation, status, expires_at)
  select q.id, o.id, 'Add', q.status, q.created_at + interval '14 days' from requests q join org_by_number o on o.n = (substr(q.email, 2, strpos(q.email, '@') - 2))::int % 500;
-- A quarter of the pending items passed their deadline and went to the backup BRMs.
update request_items set forwarded_at = expires_at - interval '1 day'
  where status = 'pending' and extract(minute from expires_at)::int % 4 = 0;
alter table audit_events set unlogged;
create temporary table audit_indexes as
  select indexname, indexdef from pg_indexes where tablename = 'audit_events' and indexname <> 'audit_events_pkey';
do $$ declare i record; begin
  for i in select indexname from audit_indexes loop execute 'drop index ' || i.indexname; end loop;
end $$;
alter table audit_events drop constraint audit_events_pkey;
insert into audit_events (occurred_at, action, outcome, actor_id, actor_username, target_id, target_username, organization_id)
  select timestamptz '2024-01-01' + g * interval '10 seconds',
    case when g % 200000 = 7 then 'account.terminate'
      else (array['session.signin', 'session.signout', 'access.request', 'request.approve', 'account.enable'])[1 + g % 5] end,
    'success', a.id, 'v' || a.k, t.id, 'v' || t.k, o.id
  from generate_series(0::bigint, 1999999) g
  join vendor_by_number a on a.k = (g * 7919) % 50000
  join vendor_by_number t on t.k = (g * 104729 + 11) % 50000
  left join org_by_number o on o.n = g % 600;
alter table audit_events add primary key (id);
do $$ declare i record; begin
  for i in select indexdef from audit_indexes loop execute i.indexdef; end loop;
end $$;
`;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

/** The node types of a plan, its own and those below it. */
function nodeTypes(node: PlanNode): string[] {
  return [node['Node Type'], ...(node.Plans ?? []).flatMap(nodeTypes)];
}

/** Whether the plan reads the organizations under a Limit (for each row before the limit). */
function organizationsBelowLimit(node: PlanNode, belowLimit = false): boolean {
  if (belowLimit && node['Relation Name'] === 'organizations') return true;
  const below = belowLimit || node['Node Type'] === 'Limit';
  return (node.Plans ?? []).some((child) => organizationsBelowLimit(child, below));
}

function seqScans(node: PlanNode): string[] {
  const own = node['Node Type'] === 'Seq Scan' && node['Relation Name'] ? [node['Relation Name']] : [];
  return [...own, ...(node.Plans ?? []).flatMap(seqScans)];
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('list statements at hospital scale on postgres', () => {
  let handle: DatabaseHandle & { url?: string };
  let client: pg.Client;
  let brm: Principal & { backupOrganizationIds: ReadonlySet<string> };
  let backupBrm: Principal & { backupOrganizationIds: ReadonlySet<string> };
  let bigBrm: Principal & { backupOrganizationIds: ReadonlySet<string> };
  let admin: Principal;

  beforeAll(async () => {
    handle = await createTestDatabase('postgres');
    client = new pg.Client({ connectionString: handle.url });
    await client.connect();
    await client.query('set statement_timeout = 0');
    await client.query("set maintenance_work_mem = '64MB'");
    await client.query(BUILD);
    // As autovacuum leaves a table that has settled: statistics and the visibility map.
    await client.query('vacuum analyze');
    const ids = await client.query<{ username: string; id: string }>(
      "select username, id from accounts where username in ('brmten', 'brmbackup', 'brmbig1', 'adminbig')",
    );
    const idOf = (name: string) => ids.rows.find((r) => r.username === name)!.id;
    // As loadActor reads it: brmten is the primary BRM of ten organizations and backs up none.
    brm = {
      id: idOf('brmten'),
      isActive: true,
      isVendor: false,
      isEmployeeBrm: true,
      isAdmin: false,
      backupOrganizationIds: new Set<string>(),
    };
    // brmbackup is the primary BRM of ten organizations and the backup of ten others.
    const backups = await client.query<{ organization_id: string }>(
      "select organization_id from brm_assignments where kind = 'backup' and account_id = $1",
      [idOf('brmbackup')],
    );
    backupBrm = {
      ...brm,
      id: idOf('brmbackup'),
      backupOrganizationIds: new Set(backups.rows.map((r) => r.organization_id)),
    };
    bigBrm = { ...brm, id: idOf('brmbig1') };
    admin = { id: idOf('adminbig'), isActive: true, isVendor: false, isEmployeeBrm: false, isAdmin: true };
  }, 600_000);
  afterAll(async () => {
    await client?.end();
    await handle?.close();
  });

  /** The actor as Manage Users loads it (its BRM assignments read). */
  const actorOf = (principal: Principal): Promise<Actor> =>
    loadActor(handle.db, {
      id: principal.id,
      status: 'active',
      type: 'employee',
      is_employee_brm: principal.isEmployeeBrm,
      is_admin: principal.isAdmin,
    });

  /** Manage Users' counts (list-users.ts): every vendor in the actor's scope, and those the filter matches. */
  async function countVendors(actor: Actor, filter: string) {
    const scope = vendor.pinnedScopeOf(actor, 'a');
    await countAccountsAtVersion(handle.db, scope.condition);
    if (filter) await countAccountsAtVersion(handle.db, scope.condition, matchesFilter(filter));
  }

  /**
   * The statements `run` sends, each with the tables its plan reads end to end and its node types,
   * planned with the settings it runs under (a `set local` before it applies to it).
   */
  async function plansOf(
    run: () => Promise<unknown>,
  ): Promise<{ sql: string; seqScans: string[]; nodes: string[]; organizationsBelowLimit: boolean }[]> {
    const spy = vi.spyOn(pg.Client.prototype, 'query');
    let statements: { text: string; values: unknown[] }[];
    try {
      await run();
      statements = spy.mock.calls
        .filter(([text]) => typeof text === 'string')
        .map(([text, values]) => ({ text: text, values: values as unknown[] }));
    } finally {
      spy.mockRestore();
    }
    expect(statements.length).toBeGreaterThan(0);
    const plans = [];
    const applied: string[] = [];
    try {
      for (const { text, values } of statements) {
        const setting = /^\s*set local (\w+) = (.+)$/i.exec(text);
        if (setting) {
          await client.query(`set ${setting[1]} = ${setting[2]}`);
          applied.push(setting[1]!);
        }
        // Transaction control and settings have no plan.
        if (!/^\s*(select|with)\b/i.test(text)) continue;
        const result = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          `explain (format json) ${text}`,
          values,
        );
        const plan = result.rows[0]!['QUERY PLAN'][0].Plan;
        plans.push({
          sql: text,
          seqScans: seqScans(plan),
          nodes: nodeTypes(plan),
          organizationsBelowLimit: organizationsBelowLimit(plan),
        });
      }
    } finally {
      for (const name of applied) await client.query(`reset ${name}`);
    }
    return plans;
  }

  /** The statements of `run` that read a big table end to end, as "what: tables (statement)". */
  async function seqScansOf(what: string, run: () => Promise<unknown>): Promise<string[]> {
    return (await plansOf(run))
      .map((plan) => ({ ...plan, big: plan.seqScans.filter((table) => BIG_TABLES.has(table)) }))
      .filter((plan) => plan.big.length > 0)
      .map((plan) => `${what}: ${plan.big.join(', ')} (${plan.sql})`);
  }

  it('has the data it claims', async () => {
    const counts = await client.query<{
      events: number;
      vendors: number;
      pending: number;
      forwarded: number;
      managed: number;
    }>(`
      select (select count(*) from audit_events)::int as events,
        (select count(*) from request_items where status = 'pending' and forwarded_at is not null)::int as forwarded,
        (select count(*) from accounts where type = 'vendor')::int as vendors,
        (select count(*) from request_items where status = 'pending')::int as pending,
        (select count(distinct g.account_id) from role_grants g join brm_assignments b using (organization_id))::int as managed`);
    expect(counts.rows[0]).toMatchObject({ events: 2_000_000, vendors: 50_000, pending: 5_000 });
    expect(counts.rows[0]!.managed).toBeGreaterThan(1_000);
    expect(counts.rows[0]!.forwarded).toBeGreaterThan(500);
  });

  const vendorSorts: VendorSortKey[] = ['username', 'givenName', 'familyName', 'email', 'status'];

  it('Manage Users: a BRM of ten organizations, every sort, the filter, and the counts', async () => {
    const actor = await actorOf(brm);
    const scope = () => vendor.pinnedScopeOf(actor, 'a').condition;
    const found: string[] = [];
    for (const filter of ['', 'family12', 'v4711']) {
      found.push(...(await seqScansOf(`count ${filter}`, () => countVendors(actor, filter))));
      for (const sort of vendorSorts) {
        for (const direction of ['asc', 'desc'] as const) {
          found.push(
            ...(await seqScansOf(`${sort} ${direction} ${filter}`, () =>
              pageManagedVendors(handle.db, scope(), { filter, sort, direction, offset: 0, limit: 10 }),
            )),
          );
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('Manage Users: the counts of one of the ten BRMs of the ten largest organizations plan without Memoize', async () => {
    // Memoize cached each organization's grants, each looked up once, at the planner's estimate of
    // an average organization: at 50,000 vendors it made the count take 38–40 ms instead of 26
    // (bench/RESULTS.md). The count names the BRM's organizations (vendor.pinnedScopeOf).
    const actor = await actorOf(bigBrm);
    for (const filter of ['', 'v4711']) {
      const plans = await plansOf(() => countVendors(actor, filter));
      expect(plans.map((plan) => ({ sql: plan.sql, memoized: plan.nodes.includes('Memoize') }))).toEqual(
        plans.map((plan) => ({ sql: plan.sql, memoized: false })),
      );
    }
  });

  it('Manage Users: an admin, every sort and the filter', async () => {
    const actor = await actorOf(admin);
    const scope = () => vendor.pinnedScopeOf(actor, 'a').condition;
    const found: string[] = [];
    for (const filter of ['', 'family12', 'v4711']) {
      for (const sort of vendorSorts) {
        found.push(
          ...(await seqScansOf(`${sort} ${filter}`, () =>
            pageManagedVendors(handle.db, scope(), { filter, sort, direction: 'asc', offset: 20, limit: 10 }),
          )),
        );
      }
    }
    // Counting every vendor ("Managing N users") walks the index of live vendors' ids (0030), not
    // the table's rows; the filtered count starts from the search index.
    const counts = await seqScansOf('counts', () => countVendors(actor, 'v4711'));
    expect(counts).toEqual([]);
    expect(found).toEqual([]);
  });

  const approvalSorts: (ApprovalSortKey | undefined)[] = [undefined, 'created', 'firstname', 'org'];

  it('Approvals: 5,000 pending among 50,000 decided, for a BRM, a BRM who is also a backup, and an admin', async () => {
    expect(backupBrm.backupOrganizationIds.size).toBe(10);
    const found: string[] = [];
    for (const actor of [brm, backupBrm, admin]) {
      const who = actor === brm ? 'brm' : actor === backupBrm ? 'backup brm' : 'admin';
      const scope = () => request.scopeOf(actor, 'i');
      found.push(
        ...(await seqScansOf(`${who} count`, () =>
          countDecidableItemsMatching(handle.db, scope(), 'given1'),
        )),
      );
      for (const sort of approvalSorts) {
        found.push(
          ...(await seqScansOf(`${who} page ${sort}`, () =>
            pageDecidableItems(handle.db, scope(), {
              filter: '',
              sort,
              direction: 'desc',
              offset: 0,
              limit: 5,
            }),
          )),
        );
      }
      found.push(
        ...(await seqScansOf(`${who} filter`, () =>
          pageDecidableItems(handle.db, scope(), {
            filter: 'given1',
            sort: undefined,
            direction: 'asc',
            offset: 0,
            limit: 5,
          }),
        )),
      );
    }
    // An admin's filter, and sorts by what the page shows of the person, read every pending item
    // with its request and account: PostgreSQL hashes requests and accounts rather than look up
    // each of 5,000 items by index. Any other statement, and every one of a BRM, is index-driven.
    const readsEveryPending = (line: string) =>
      /^admin (count|filter|page created|page firstname): (accounts, )?requests \(/.test(line);
    expect(found.filter((line) => !readsEveryPending(line))).toEqual([]);
  });

  it('audit trail: the first page, each filter, and the next page', async () => {
    const filters = [
      {},
      { person: 'v4711' },
      { person: 'v4711@org211.example' },
      { actor: 'v123' },
      { target: 'v321' },
      { organization: 'Org 42' },
      { action: 'account.terminate' },
      { action: 'session.signin', outcome: 'success' as const },
      { from: '2024-03-01T00:00:00Z', to: '2024-03-02T00:00:00Z' },
    ];
    const found: string[] = [];
    for (const filter of filters) {
      found.push(
        ...(await seqScansOf(JSON.stringify(filter), () => selectAuditEvents(handle.db, filter, null, 50))),
      );
    }
    const cursor = { at: '2024-06-01 00:00:00+00', id: '00000000-0000-0000-0000-000000000000' };
    found.push(
      ...(await seqScansOf('next page', () => selectAuditEvents(handle.db, { person: 'v4711' }, cursor, 50))),
    );
    expect(found).toEqual([]);
  });

  it('audit export: each batch is chosen before the organizations are joined, fresh events of one action too', async () => {
    // 100,000 events of one action written since the statistics were last gathered (a mass
    // termination, a new kind of event): the planner takes the action as rare and reads the
    // batch through the action's index, sorting every remaining match. Joined to the
    // organizations before the limit, each of those matches was also looked up (an export of
    // 200,000 such events took 80-90 s); chosen first, only the batch's 1,000 are.
    await client.query(`
      insert into audit_events (occurred_at, action, outcome, actor_id, actor_username, target_id, target_username, organization_id)
      select timestamptz '2024-09-01' + g * interval '1 second', 'test.bulk', 'success', a.id, a.username, a.id, a.username, o.id
      from generate_series(1, 100000) g
      cross join (select id, username from accounts where username = 'v1') a
      join org_by_number o on o.n = g % 500`);
    const cursors = [null, { at: '2024-09-01 12:00:00+00', id: '00000000-0000-0000-0000-000000000000' }];
    const joinedBelowLimit: string[] = [];
    for (const action of ['test.bulk', 'session.signin']) {
      for (const cursor of cursors) {
        for (const plan of await plansOf(() => selectAuditEvents(handle.db, { action }, cursor, 1000))) {
          if (plan.organizationsBelowLimit) joinedBelowLimit.push(`${action}: ${plan.sql}`);
        }
      }
    }
    expect(joinedBelowLimit).toEqual([]);
  });
});
