// A large hospital's data, built set-based (generate_series) in a PostgreSQL database the portal has
// already migrated: organizations, vendors holding roles, pending request items, audit events, ten
// employee BRMs of the same ten organizations, and an admin. Reusable by any bench: `buildScaleData`.
// At scale 1: 500 organizations, 50,000 vendors, 5,000 pending request items, 2,000,000 audit events.
import pg from 'pg';

export interface ScaleSize {
  organizations: number;
  vendors: number;
  pendingItems: number;
  auditEvents: number;
}

/** The sizes times `scale` (at least a handful of each). */
export function scaleSize(scale: number): ScaleSize {
  const of = (n: number, least: number) => Math.max(least, Math.round(n * scale));
  return {
    organizations: of(500, 20),
    vendors: of(50_000, 200),
    pendingItems: of(5_000, 20),
    auditEvents: of(2_000_000, 1_000),
  };
}

/** The usernames the built data holds, for sign-ins and filters. */
export const scaleNames = {
  /** Ten employee BRMs, each of the same ten organizations (the busiest). */
  brms: Array.from({ length: 10 }, (_, i) => `scalebrm${i}`),
  admin: 'scaleadmin',
  /** The n-th vendor (1-based): its username; its email is `${username}@scale.example`. */
  vendor: (n: number) => `scalevendor${n}`,
};

/**
 * Builds the data into the migrated database at `url`, every account with `passwordHash` (so the
 * built-in IdP's password step works for any of them). Returns the sizes built and the seconds taken.
 * Each vendor holds the role of organization n % organizations and of one of the ten busiest
 * (n % 10), so a BRM of those ten sees every vendor, as in the measurement.
 */
export async function buildScaleData(
  url: string,
  size: ScaleSize,
  passwordHash: string,
): Promise<{ size: ScaleSize; seconds: number }> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const run = (text: string, values: unknown[] = []) => client.query(text, values);
  try {
    await run('set statement_timeout = 0');
    await run(
      `insert into organizations (name)
       select 'Scale Org ' || lpad(n::text, 4, '0') from generate_series(1, $1::int) n`,
      [size.organizations],
    );
    await run(`create temporary table scale_orgs as
      select id, row_number() over (order by name)::int - 1 as n from organizations where name like 'Scale Org %'`);
    await run(`insert into organization_domains (organization_id, domain)
      select id, 'org' || n || '.scale.example' from scale_orgs`);
    await run(
      `insert into accounts (username, given_name, family_name, email, type, status, password_hash, password_changed_at)
       select 'scalevendor' || n, 'Given' || n, 'Family' || n, 'scalevendor' || n || '@scale.example', 'vendor',
              'active', $2, now()
         from generate_series(1, $1::int) n`,
      [size.vendors, passwordHash],
    );
    await run(
      `insert into role_grants (account_id, organization_id)
       select a.id, o.id from accounts a
         join scale_orgs o on o.n = (substring(a.username from 12))::int % $1
        where a.username like 'scalevendor%'
       union
       select a.id, o.id from accounts a
         join scale_orgs o on o.n = (substring(a.username from 12))::int % 10
        where a.username like 'scalevendor%'`,
      [size.organizations],
    );
    await run(
      `insert into accounts (username, email, type, is_employee_brm, is_admin, status, password_hash, password_changed_at)
       select 'scalebrm' || n, 'scalebrm' || n || '@hospital.example', 'employee', true, false, 'active', $1, now()
         from generate_series(0, 9) n
       union all
       select 'scaleadmin', 'scaleadmin@hospital.example', 'employee', false, true, 'active', $1, now()`,
      [passwordHash],
    );
    await run(`insert into brm_assignments (account_id, organization_id)
      select a.id, o.id from accounts a, scale_orgs o where a.username like 'scalebrm%' and o.n < 10`);
    // Pending role requests (Add Access) of vendors, one item each, spread over every organization,
    // each with its deadline (the default tier's 14 days: migration 0011's items carry one).
    await run(
      `with r as (
         insert into requests (type, status, requester_id, beneficiary_id, first_name, last_name, email, comment)
         select 'Add Access', 'pending', a.id, a.id, a.given_name, a.family_name, a.email, 'bench'
           from accounts a where a.username like 'scalevendor%'
          order by a.username limit $1
         returning id, beneficiary_id
       )
       insert into request_items (request_id, organization_id, operation, status, expires_at)
       select r.id, o.id, 'Add', 'pending', now() + interval '14 days'
         from r join accounts a on a.id = r.beneficiary_id
         join scale_orgs o on o.n = ((substring(a.username from 12))::int + 7) % $2`,
      [size.pendingItems, size.organizations],
    );
    // Audit events: sign-ins and role changes of vendors by BRMs over a year; one in ten thousand
    // an account.terminate (the rare action).
    await run(
      `insert into audit_events (occurred_at, action, outcome, actor_id, actor_username, target_id, target_username,
                                 organization_id, client_address, details)
       select now() - (e.i || ' seconds')::interval * 15,
              case when e.i % 10000 = 0 then 'account.terminate' when e.i % 3 = 0 then 'role.grant' else 'signin.success' end,
              'success', v.id, v.username, v.id, v.username, o.id, '10.0.0.1', '{}'::jsonb
         from generate_series(1, $1::int) e(i)
         join accounts v on v.username = 'scalevendor' || (1 + e.i % $2)
         join scale_orgs o on o.n = e.i % $3`,
      [size.auditEvents, size.vendors, size.organizations],
    );
    // As autovacuum leaves tables that have settled after bulk inserts (PostgreSQL 13 and later
    // vacuum on inserts too): statistics, and the visibility map that lets an index-only scan
    // skip the table (without it, the first figures measured a database no hospital runs on).
    await run('vacuum analyze');
  } finally {
    await client.end();
  }
  return { size, seconds: (performance.now() - started) / 1000 };
}
