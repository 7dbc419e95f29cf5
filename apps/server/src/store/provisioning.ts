import { sql, type Selectable } from 'kysely';
import type { Db, Tx } from '../platform/db';
import type { ProvisioningTable } from '../platform/db-schema';
import { claimDue } from './outbox';

// The owner of `provisioning` (changes the directory must follow; rows are written by the
// triggers of migration 0012 in the change's own transaction, applied by
// identity/directory/provisioning-worker.ts) and of `directory_reports` (reconciliation).

export type ProvisioningRow = Selectable<ProvisioningTable>;

/** Longer than the slowest directory round (a few operations at LDAP_TIMEOUT_MS each). */
const CLAIM_SECONDS = 120;

const plus = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000);

/** Turns the triggers on or off (the start sets it from IDENTITY_STORE). */
export async function setDirectoryProvisioning(db: Db, on: boolean): Promise<void> {
  await db.updateTable('portal_settings').set({ directory_provisioning: on }).where('id', '=', 1).execute();
}

/** Claims due rows (the mail outbox's claimDue), oldest change first. */
export async function claimDueProvisioning(db: Db, batchSize: number, now: Date): Promise<ProvisioningRow[]> {
  const rows = await claimDue(db, 'provisioning', batchSize, { now, leaseUntil: plus(now, CLAIM_SECONDS) });
  return rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
}

export async function finishProvisioning(db: Db, id: string, now: Date): Promise<void> {
  await db
    .updateTable('provisioning')
    .set({ status: 'done', done_at: now, locked_until: null, last_error: null })
    .where('id', '=', id)
    .execute();
}

export async function markProvisioningRetry(
  db: Db,
  id: string,
  retry: { attempts: number; at: Date; error: string },
): Promise<void> {
  await db
    .updateTable('provisioning')
    .set({ attempts: retry.attempts, next_attempt_at: retry.at, locked_until: null, last_error: retry.error })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** Hands claimed rows back unapplied (a stopping worker). */
export async function releaseProvisioningClaims(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('provisioning').set({ locked_until: null }).where('id', 'in', ids).execute();
}

/** The directory answers again: rows that waited for it are due now, not at their backed-off slot. */
export async function makeProvisioningDue(db: Db, now: Date): Promise<number> {
  const result = await db
    .updateTable('provisioning')
    .set({ next_attempt_at: now })
    .where('status', '=', 'pending')
    .where('next_attempt_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Rows that failed at least once and still wait, with the directory's reason (admins' screen). */
export async function listFailingProvisioning(db: Db, limit = 200) {
  return db
    .selectFrom('provisioning as p')
    .leftJoin('accounts as a', 'a.id', 'p.account_id')
    .leftJoin('organizations as o', 'o.id', 'p.organization_id')
    .select([
      'p.id',
      'p.created_at',
      'p.action',
      'p.attempts',
      'p.last_error',
      'p.next_attempt_at',
      'a.username',
      'o.name as organization',
    ])
    .where('p.status', '=', 'pending')
    .where('p.attempts', '>', 0)
    .orderBy('p.created_at')
    .limit(limit)
    .execute();
}

/** A waiting row is tried again now; false when there is no such row waiting. */
export async function retryProvisioningNow(db: Db, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('provisioning')
    .set({ next_attempt_at: now, locked_until: null })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export interface ProvisioningState {
  pending: number;
  failing: number;
  oldestPendingSeconds: number;
}

export async function readProvisioningState(db: Db, now: Date): Promise<ProvisioningState> {
  const result = await sql<ProvisioningState>`
    select (select count(*) from provisioning where status = 'pending')::int as "pending",
           (select count(*) from provisioning where status = 'pending' and attempts > 0)::int as "failing",
           coalesce(extract(epoch from ${now}::timestamptz - (select min(created_at) from provisioning
                                                where status = 'pending')), 0)::float8
             as "oldestPendingSeconds"`.execute(db);
  const row = result.rows[0];
  return {
    pending: Number(row?.pending ?? 0),
    failing: Number(row?.failing ?? 0),
    oldestPendingSeconds: Math.max(0, Number(row?.oldestPendingSeconds ?? 0)),
  };
}

/** What the worker applies for an account: its names, status and granted role names. */
export async function accountForDirectory(db: Db, accountId: string) {
  const account = await db
    .selectFrom('accounts')
    .select(['id', 'username', 'given_name', 'family_name', 'email', 'status', 'type'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (!account) return undefined;
  const organizations = await db
    .selectFrom('role_grants as g')
    .innerJoin('organizations as o', 'o.id', 'g.organization_id')
    .select('o.name')
    .where('g.account_id', '=', accountId)
    .execute();
  return { ...account, organizationNames: organizations.map((o) => o.name) };
}

export async function organizationName(db: Db, organizationId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('organizations')
    .select('name')
    .where('id', '=', organizationId)
    .executeTakeFirst();
  return row?.name;
}

/** Every vendor the directory should hold (reconciliation): status and granted role organizations. */
export async function vendorsForDirectory(db: Db) {
  const accounts = await db
    .selectFrom('accounts')
    .select(['id', 'username', 'given_name', 'family_name', 'email', 'status'])
    .where('type', '=', 'vendor')
    .execute();
  const grants = await db
    .selectFrom('role_grants as g')
    .innerJoin('organizations as o', 'o.id', 'g.organization_id')
    .innerJoin('accounts as a', 'a.id', 'g.account_id')
    .select(['g.account_id', 'o.name'])
    .where('a.type', '=', 'vendor')
    .execute();
  return accounts.map((a) => ({
    ...a,
    organizationNames: grants.filter((g) => g.account_id === a.id).map((g) => g.name),
  }));
}

export async function allOrganizationNames(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('organizations').select('name').execute();
  return rows.map((r) => r.name);
}

export async function insertDirectoryReport(
  db: Db | Tx,
  report: { createdAt: Date; drift: number; applied: boolean; report: unknown },
): Promise<void> {
  await db
    .insertInto('directory_reports')
    .values({
      created_at: report.createdAt,
      drift: report.drift,
      applied: report.applied,
      report: JSON.stringify(report.report),
    })
    .execute();
}

export async function lastDirectoryReport(db: Db) {
  return db
    .selectFrom('directory_reports')
    .select(['created_at', 'drift', 'applied', 'report'])
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}
