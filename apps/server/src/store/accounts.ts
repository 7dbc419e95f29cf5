import { sql, type RawBuilder } from 'kysely';
import { hasKindSql } from './account-kinds';
import { inChunks } from './chunks';
import { containsPattern } from './like';
import type { Db, Tx } from '../platform/db';
import type { Account, AccountStatus } from '../platform/db-schema';

// The owner of the `accounts` table and its `password_history`.

export async function findAccountByUsername(db: Db | Tx, username: string): Promise<Account | undefined> {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
}

export async function findAccountById(db: Db | Tx, id: string): Promise<Account | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A vendor account waiting for activation (no password yet); returns its id. */
export async function insertPendingVendor(
  tx: Tx,
  a: {
    username: string;
    givenName: string;
    familyName: string;
    email: string;
    jobTitle: string;
    manager: string;
  },
): Promise<string> {
  const { id } = await tx
    .insertInto('accounts')
    .values({
      username: a.username,
      given_name: a.givenName,
      family_name: a.familyName,
      email: a.email,
      job_title: a.jobTitle,
      manager: a.manager,
      type: 'vendor',
      status: 'pendingActivation',
      password_hash: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Sets an account's status (enable, disable, terminate); the caller ends sessions where needed. */
export async function setAccountStatus(tx: Tx, accountId: string, status: AccountStatus): Promise<void> {
  await tx
    .updateTable('accounts')
    .set({
      status,
      updated_at: sql<Date>`now()`,
      // A person's disable is `manual`; enabling clears why it was disabled.
      ...(status === 'disabled'
        ? { disabled_reason: 'manual' as const, disabled_at: sql<Date>`now()` }
        : status === 'terminated'
          ? {}
          : { disabled_reason: null, disabled_at: null }),
    })
    .where('id', '=', accountId)
    .execute();
}

/** Sets the status of many accounts in one statement (Terminate Vendors). */
export async function setStatusOfAccounts(tx: Tx, accountIds: readonly string[], status: AccountStatus) {
  if (accountIds.length === 0) return;
  await tx
    .updateTable('accounts')
    .set({ status, updated_at: sql<Date>`now()` })
    .where('id', 'in', accountIds)
    .execute();
}

/** Sets the password hash of an account that is still active; false (nothing changed) otherwise. */
export async function setPasswordIfActive(tx: Tx, accountId: string, passwordHash: string): Promise<boolean> {
  const updated = await tx
    .updateTable('accounts')
    .set({
      password_hash: passwordHash,
      password_changed_at: sql<Date>`now()`,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', accountId)
    .where('status', '=', 'active')
    .returning('id')
    .executeTakeFirst();
  return updated !== undefined;
}

/** The hashes of the account's last `size` passwords, newest first (the current one included). */
export async function recentPasswordHashes(db: Db | Tx, accountId: string, size: number): Promise<string[]> {
  const rows = await db
    .selectFrom('password_history')
    .select('password_hash')
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .limit(size)
    .execute();
  return rows.map((row) => row.password_hash);
}

/** Adds a password to the account's history and keeps only the newest `size`. */
export async function addToPasswordHistory(
  tx: Tx,
  accountId: string,
  passwordHash: string,
  size: number,
): Promise<void> {
  await tx
    .insertInto('password_history')
    .values({ account_id: accountId, password_hash: passwordHash })
    .execute();
  await tx
    .deleteFrom('password_history')
    .where('account_id', '=', accountId)
    .where(
      'id',
      'not in',
      tx
        .selectFrom('password_history')
        .select('id')
        .where('account_id', '=', accountId)
        .orderBy('created_at', 'desc')
        .limit(size),
    )
    .execute();
}

/** Whether a non-terminated account uses the email (`folded`: lowercase). */
export async function emailInUse(db: Db | Tx, folded: string): Promise<boolean> {
  const account = await db
    .selectFrom('accounts')
    .select('id')
    .where(sql<string>`lower(email)`, '=', folded)
    .where('status', '!=', 'terminated')
    .executeTakeFirst();
  return account !== undefined;
}

/**
 * Serializes every registration and approval touching one email address for the rest of the
 * transaction (an advisory lock: no unique index covers a BRM registration).
 */
export async function lockEmail(tx: Tx, email: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`email:${email.toLowerCase()}`}))`.execute(tx);
}

/**
 * The usernames (lowercase) that start with `stem`, read under an advisory lock on the stem held
 * for the rest of the transaction, so two approvals that could pick the same name take turns.
 * The stem is lowercase ASCII letters only: nothing in it is special to LIKE.
 */
export async function lockedUsernamesWithStem(tx: Tx, stem: string): Promise<Set<string>> {
  await sql`select pg_advisory_xact_lock(hashtext(${`username:${stem}`}))`.execute(tx);
  const rows = await tx
    .selectFrom('accounts')
    .select(sql<string>`lower(username)`.as('username'))
    .where(sql<string>`lower(username)`, 'like', `${stem}%`)
    .execute();
  return new Set(rows.map((r) => r.username));
}

/** The emails of the active admins. */
export async function activeAdminEmails(db: Db | Tx): Promise<string[]> {
  const admins = await db
    .selectFrom('accounts as a')
    .select('a.email')
    .where(hasKindSql('a', 'admin'))
    .where('a.status', '=', 'active')
    .execute();
  return admins.map((r) => r.email);
}

/**
 * Sets the first password of a pending account, activates it and records the password in its
 * history; false when the account is no longer pending.
 */
export async function setFirstPassword(tx: Tx, accountId: string, passwordHash: string): Promise<boolean> {
  const activated = await tx
    .updateTable('accounts')
    .set({
      password_hash: passwordHash,
      password_changed_at: sql<Date>`now()`,
      status: 'active',
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', accountId)
    .where('status', '=', 'pendingActivation')
    .returning('id')
    .executeTakeFirst();
  if (!activated) return false;
  await tx
    .insertInto('password_history')
    .values({ account_id: accountId, password_hash: passwordHash })
    .execute();
  return true;
}

/**
 * The active or pending accounts whose given name, family name and email all equal the typed
 * ones, ignoring case (Forgot User ID).
 */
export async function findAccountsByNamesAndEmail(
  db: Db,
  search: { firstName: string; lastName: string; email: string },
) {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where(sql<string>`lower(given_name)`, '=', search.firstName.toLowerCase())
    .where(sql<string>`lower(family_name)`, '=', search.lastName.toLowerCase())
    .where(sql<string>`lower(email)`, '=', search.email.toLowerCase())
    .where('status', 'in', ['active', 'pendingActivation'])
    .orderBy('created_at')
    .limit(2)
    .execute();
}

/** The account of a mail's recipient in the given status (the one a code mail was for). */
export async function accountByEmail(tx: Tx, email: string, status: 'pendingActivation' | 'active') {
  return tx
    .selectFrom('accounts')
    .select(['id', 'username', 'given_name', 'email'])
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .where('status', '=', status)
    .executeTakeFirst();
}

/** A vendor account that is not terminated, by username (case-insensitive). */
export async function findVendor(db: Db | Tx, username: string) {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where(sql<boolean>`lower(username) = lower(${username})`)
    .where('type', '=', 'vendor')
    .where('status', '!=', 'terminated')
    .executeTakeFirst();
}

/** The sortable columns of Manage Users (contracts' managedUsersQuery). */
export type VendorSortKey = 'username' | 'givenName' | 'familyName' | 'email' | 'status';

/**
 * What each column sorts by, case-insensitively; the Status column by its text (Disabled, Enabled,
 * Pending activation). Each has an index (migrations 0001 and 0013).
 */
const vendorSortKeys: Record<VendorSortKey, RawBuilder<unknown>> = {
  username: sql`lower(a.username)`,
  givenName: sql`lower(a.given_name)`,
  familyName: sql`lower(a.family_name)`,
  email: sql`lower(a.email)`,
  status: sql`(case a.status when 'disabled' then 0 when 'active' then 1 else 2 end)`,
};

/**
 * The text the Manage Users filter searches, as the trigram index of migration 0013 has it: the
 * username, the email and "given family" between separators (U+001F, which a filter may not
 * hold), so "contains" on it is "contains" on any of them.
 */
const vendorSearchText = sql<string>`lower(a.username || chr(31) || a.email || chr(31) || a.given_name || ' ' || a.family_name)`;

function managedVendors(db: Db | Tx, scope: RawBuilder<boolean>) {
  return db
    .selectFrom('accounts as a')
    .select(['a.username', 'a.given_name', 'a.family_name', 'a.email', 'a.status'])
    .select(['a.last_sign_in_at', 'a.disabled_reason', 'a.disabled_at'])
    .select(
      sql<string[]>`array(select g.organization_id::text from role_grants g where g.account_id = a.id)`.as(
        'organizationIds',
      ),
    )
    .where(scope);
}

/**
 * The vendors in `scope` (a condition on the account, alias `a`, that the caller takes from the
 * vendor policy: policies/vendor.ts scopeOf), by username, each with the organizations whose role
 * it holds.
 */
export async function listManagedVendors(db: Db | Tx, scope: RawBuilder<boolean>) {
  return managedVendors(db, scope)
    .orderBy(sql`lower(a.username)`)
    .execute();
}

export interface VendorPageRequest {
  /** Contains (case-insensitive) in the username, email or name; '' for every vendor. */
  filter: string;
  sort: VendorSortKey;
  direction: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** The Manage Users (and People) filter as a condition on the account (alias `a`). */
export function matchesFilter(filter: string): RawBuilder<boolean> {
  return sql<boolean>`${vendorSearchText} like ${containsPattern(filter)}`;
}

/**
 * One page of the vendors in `scope` that the filter matches, sorted by the column (ties by
 * username, as the list was ordered before it was paged), with the organizations whose role each holds.
 */
export async function pageManagedVendors(db: Db | Tx, scope: RawBuilder<boolean>, page: VendorPageRequest) {
  let query = managedVendors(db, scope);
  if (page.filter) query = query.where(matchesFilter(page.filter));
  query = query.orderBy(vendorSortKeys[page.sort], page.direction);
  if (page.sort !== 'username') query = query.orderBy(sql`lower(a.username)`);
  return query.offset(page.offset).limit(page.limit).execute();
}

/** A vendor account by username (case-insensitive), locked for the rest of the transaction. */
export async function findVendorForUpdate(tx: Tx, username: string): Promise<Account | undefined> {
  return tx
    .selectFrom('accounts')
    .selectAll()
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .where('type', '=', 'vendor')
    .forUpdate()
    .executeTakeFirst();
}

/** Every account whose email is one of `emails` (already lower-case), with its email lower-cased. */
export async function accountsByEmails(db: Db | Tx, emails: readonly string[]) {
  return inChunks(emails, (chunk) =>
    db
      .selectFrom('accounts')
      .select(['id', 'username', 'type', 'status', sql<string>`lower(email)`.as('email')])
      .where(sql<string>`lower(email)`, 'in', chunk)
      .orderBy('username')
      .execute(),
  );
}

/**
 * The accounts with one of `emails` (already lower-case; at most a statement's worth), their rows
 * locked for the rest of the transaction in id order, so two transactions locking overlapping
 * sets wait for each other instead of deadlocking.
 */
export async function lockAccountsByEmails(tx: Tx, emails: readonly string[]) {
  if (emails.length === 0) return [];
  return tx
    .selectFrom('accounts')
    .select(['id', 'username', 'type', 'status', sql<string>`lower(email)`.as('email')])
    .where(sql<string>`lower(email)`, 'in', emails)
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** Hospital employees with their managed organizations, by username. */
function employees(db: Db | Tx) {
  return db
    .selectFrom('accounts as a')
    .select((eb) => [
      'a.id',
      'a.username',
      'a.given_name',
      'a.family_name',
      'a.email',
      'a.is_employee_brm',
      'a.is_admin',
      'a.is_auditor',
      'a.status',
      'a.leaving_on',
      eb
        .selectFrom('brm_assignments as b')
        .innerJoin('organizations as o', 'o.id', 'b.organization_id')
        .select(sql<string[]>`coalesce(array_agg(o.name order by o.name), '{}')`.as('v'))
        .whereRef('b.account_id', '=', 'a.id')
        .as('organizations'),
    ])
    .where(isEmployee);
}

/** The hospital's people (alias `a`): migration 0020's partial indexes hold only them. */
const isEmployee = sql<boolean>`a.type = 'employee'`;

export async function listEmployees(db: Db | Tx) {
  return employees(db)
    .orderBy(sql`lower(a.username)`)
    .execute();
}

/**
 * The people the People screen pages through: employees not removed (a removed person's row stays,
 * terminated, for the trail; the whole list still names them).
 */
const isCurrentEmployee = sql<boolean>`a.type = 'employee' and a.status <> 'terminated'`;

/** Every current employee (`total`) and those the filter matches (username, email or name contain it). */
export async function countEmployees(db: Db | Tx, filter: string) {
  const count = async (matches: RawBuilder<boolean>) =>
    (
      await db
        .selectFrom('accounts as a')
        .select(sql<number>`count(*)::int`.as('n'))
        .where(isCurrentEmployee)
        .where(matches)
        .executeTakeFirstOrThrow()
    ).n;
  const [total, matching] = await Promise.all([
    count(sql<boolean>`true`),
    filter ? count(matchesFilter(filter)) : null,
  ]);
  return { total, matching: matching ?? total };
}

/** One page of the current employees the filter matches, sorted by the column (ties by username). */
export async function pageEmployees(
  db: Db | Tx,
  page: Omit<VendorPageRequest, 'sort'> & { sort: Exclude<VendorSortKey, 'status'> },
) {
  let query = employees(db).where(sql<boolean>`a.status <> 'terminated'`);
  if (page.filter) query = query.where(matchesFilter(page.filter));
  query = query.orderBy(vendorSortKeys[page.sort], page.direction);
  if (page.sort !== 'username') query = query.orderBy(sql`lower(a.username)`);
  return query.offset(page.offset).limit(page.limit).execute();
}

export async function insertEmployee(
  tx: Tx,
  person: {
    username: string;
    given_name: string;
    family_name: string;
    email: string;
    is_employee_brm: boolean;
    is_admin: boolean;
    is_auditor: boolean;
  },
): Promise<string> {
  // No password: employees sign in through the hospital's IdP (standalone: `admin set-password`).
  const row = await tx
    .insertInto('accounts')
    .values({ ...person, type: 'employee', status: 'active', password_hash: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateEmployee(
  tx: Tx,
  id: string,
  change: Partial<{
    given_name: string;
    family_name: string;
    email: string;
    is_employee_brm: boolean;
    is_admin: boolean;
    is_auditor: boolean;
    status: 'active' | 'terminated';
  }>,
): Promise<void> {
  await tx
    .updateTable('accounts')
    .set({ ...change, updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

export async function countActiveAdmins(tx: Tx, exceptId: string): Promise<number> {
  // Admins who can make changes (an auditor cannot), their rows locked: two admins removing each
  // other's rights at once wait for each other, and the second counts what the first left.
  const rows = await tx
    .selectFrom('accounts')
    .select('id')
    .where('type', '=', 'employee')
    .where('is_admin', '=', true)
    .where('is_auditor', '=', false)
    .where('status', '=', 'active')
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.filter((row) => row.id !== exceptId).length;
}

/** A built-in-IdP password for an employee (standalone); the history keeps it from being reused. */
export async function setPasswordHash(tx: Tx, accountId: string, hash: string): Promise<void> {
  await tx
    .updateTable('accounts')
    .set({ password_hash: hash, password_changed_at: new Date(), updated_at: new Date() })
    .where('id', '=', accountId)
    .execute();
  await tx.insertInto('password_history').values({ account_id: accountId, password_hash: hash }).execute();
}

/** An active account with a password set now (the demo data); returns its id. */
export async function insertActiveAccount(
  tx: Tx,
  a: {
    username: string;
    given_name: string;
    family_name: string;
    email: string;
    job_title: string;
    type: 'vendor' | 'employee';
    is_employee_brm: boolean;
    is_admin: boolean;
    is_auditor?: boolean;
    password_hash: string;
  },
): Promise<string> {
  const { id } = await tx
    .insertInto('accounts')
    .values({ ...a, status: 'active', password_changed_at: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Adds a password to the account's history (which keeps it from being set again). */
export async function insertPasswordHistory(tx: Tx, accountId: string, passwordHash: string): Promise<void> {
  await tx
    .insertInto('password_history')
    .values({ account_id: accountId, password_hash: passwordHash })
    .execute();
}

/**
 * Governance: of the accounts, those left with no grant are disabled (reason `noAccess`) at `at`,
 * in one statement (only active or not yet activated ones). Returns the accounts it disabled.
 */
export async function disableLeftWithoutAccess(tx: Tx, accountIds: readonly string[], at: Date) {
  if (accountIds.length === 0) return [];
  return (
    tx
      .updateTable('accounts')
      .set({ status: 'disabled', disabled_reason: 'noAccess', disabled_at: at, updated_at: at })
      .where('id', 'in', accountIds)
      // An account suspended for a reported departure that lost its last grant follows §3.3 too.
      .where((eb) =>
        eb.or([
          eb('status', 'in', ['active', 'pendingActivation']),
          eb.and([eb('status', '=', 'disabled'), eb('disabled_reason', '=', 'departureReported')]),
        ]),
      )
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('role_grants as g')
              .select('g.account_id')
              .whereRef('g.account_id', '=', 'accounts.id'),
          ),
        ),
      )
      .returning(['id', 'username', 'email', 'given_name'])
      .execute()
  );
}

/**
 * Governance: a new grant re-enables an account the sweeper disabled for no access (within the 30
 * days before it is closed). Returns whether it changed.
 */
export async function enableAfterNoAccess(tx: Tx, accountId: string, at: Date): Promise<boolean> {
  const rows = await tx
    .updateTable('accounts')
    .set({ status: 'active', disabled_reason: null, disabled_at: null, updated_at: at })
    .where('id', '=', accountId)
    .where('status', '=', 'disabled')
    .where('disabled_reason', '=', 'noAccess')
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** Accounts disabled for no access at or before `cutoff`, after `after` by id: the sweep's batches. */
export async function disabledForNoAccessSince(
  db: Db,
  cutoff: Date,
  after: { id: string } | null,
  limit: number,
) {
  let query = db
    .selectFrom('accounts')
    .select(['id', 'username', 'email', 'given_name', 'disabled_at'])
    .where('status', '=', 'disabled')
    .where('disabled_reason', '=', 'noAccess')
    .where('disabled_at', '<=', cutoff);
  if (after) query = query.where('id', '>', after.id);
  return query.orderBy('id').limit(limit).execute();
}

/** Terminates an account still disabled for no access since `cutoff` or earlier; whether it did. */
export async function terminateDisabledForNoAccess(
  tx: Tx,
  accountId: string,
  cutoff: Date,
  at: Date,
): Promise<boolean> {
  const rows = await tx
    .updateTable('accounts')
    .set({ status: 'terminated', updated_at: at })
    .where('id', '=', accountId)
    .where('status', '=', 'disabled')
    .where('disabled_reason', '=', 'noAccess')
    .where('disabled_at', '<=', cutoff)
    .returning('id')
    .execute();
  return rows.length > 0;
}

/**
 * GOVERNANCE.md §10.2, high tier: suspends an active account at once when its departure is
 * reported (`departureReported`). Returns whether it changed.
 */
export async function suspendForDeparture(tx: Tx, accountId: string, at: Date): Promise<boolean> {
  const rows = await tx
    .updateTable('accounts')
    .set({ status: 'disabled', disabled_reason: 'departureReported', disabled_at: at, updated_at: at })
    .where('id', '=', accountId)
    .where('status', '=', 'active')
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** A dismissed report gives a suspended account back (only one suspended for a reported departure). */
export async function enableAfterDismissedDeparture(tx: Tx, accountId: string, at: Date): Promise<boolean> {
  const rows = await tx
    .updateTable('accounts')
    .set({ status: 'active', disabled_reason: null, disabled_at: null, active_since: at, updated_at: at })
    .where('id', '=', accountId)
    .where('status', '=', 'disabled')
    .where('disabled_reason', '=', 'departureReported')
    .returning('id')
    .execute();
  return rows.length > 0;
}
