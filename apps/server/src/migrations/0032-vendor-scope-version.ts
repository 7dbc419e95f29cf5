import { sql, type Kysely } from 'kysely';

/**
 * A number that changes with every committed change a vendor count can see, so that Manage Users'
 * exact "Managing N users" (store/vendor-counts.ts) is counted once per change, not per request:
 * at 50,000 vendors the count for a BRM of ten organizations costs 12–17 ms of PostgreSQL's time
 * (bench/RESULTS.md), and ten BRMs opening the screen at once queued behind each other's counts.
 *
 * What a count depends on: vendor accounts (created, removed, their type or status, the columns the
 * filter searches), the role grants that put a vendor in an organization, and the BRM assignments
 * that give a BRM its organizations. Each change of those bumps `vendor_scope_version.version` in the
 * change's own transaction, so a reader that reads the number and counts in one statement sees both
 * from one snapshot: a count cached under a number is exact for as long as the number stays.
 *
 * The bump is a deferred constraint trigger: it runs at commit, after the transaction has taken
 * every row lock it needs, so two writers wait for each other's commit on this one row but can
 * never deadlock over it. It bumps once per transaction, however many rows change.
 */
/** Per table, the columns a vendor count reads (the scope, the filter's search text). */
const countedColumns = {
  accounts: ['type', 'status', 'username', 'email', 'given_name', 'family_name'],
  role_grants: ['account_id', 'organization_id'],
  brm_assignments: ['account_id', 'organization_id'],
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table vendor_scope_version (
      id int primary key check (id = 1),
      version bigint not null,
      bumped_by xid8
    )`.execute(db);
  await sql`insert into vendor_scope_version (id, version) values (1, 1)`.execute(db);
  await sql`
    create function vendor_scope_bump() returns trigger language plpgsql as $$
    begin
      update vendor_scope_version set version = version + 1, bumped_by = pg_current_xact_id()
        where id = 1 and bumped_by is distinct from pg_current_xact_id();
      return null;
    end $$`.execute(db);
  for (const [table, columns] of Object.entries(countedColumns)) {
    await sql`
      create constraint trigger ${sql.raw(`${table}_vendor_scope`)} after insert or delete
        on ${sql.table(table)} deferrable initially deferred
        for each row execute function vendor_scope_bump()`.execute(db);
    // An update counts only when a column a count reads really changes: a sign-in writes the
    // names the IdP sent, mostly the same, and a grant's end date or confirmation moves no count.
    const old = sql.raw(columns.map((c) => `old.${c}`).join(', '));
    const now = sql.raw(columns.map((c) => `new.${c}`).join(', '));
    await sql`
      create constraint trigger ${sql.raw(`${table}_vendor_scope_update`)}
        after update of ${sql.raw(columns.join(', '))} on ${sql.table(table)}
        deferrable initially deferred
        for each row when ((${old}) is distinct from (${now}))
        execute function vendor_scope_bump()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of Object.keys(countedColumns)) {
    await sql`drop trigger ${sql.raw(`${table}_vendor_scope`)} on ${sql.table(table)}`.execute(db);
    await sql`drop trigger ${sql.raw(`${table}_vendor_scope_update`)} on ${sql.table(table)}`.execute(db);
  }
  await sql`drop function vendor_scope_bump()`.execute(db);
  await sql`drop table vendor_scope_version`.execute(db);
}
