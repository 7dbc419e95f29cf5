import { sql } from 'kysely';
import type { Db, Tx } from '../platform/db';
import { hasKindSql } from './account-kinds';
import { inChunks } from './chunks';

// The owner of `role_grants` (a vendor holds an organization's role) and `brm_assignments` (an
// employee BRM manages an organization).

/**
 * Gives the account the organization's role until `expiresAt`, the granter its sponsor of record
 * (once; a second grant changes nothing). An emergency grant (`emergencyId`, GOVERNANCE.md §10.1)
 * is made only when the account holds no grant of the organization; an ordinary grant made while
 * an emergency grant is current replaces it (its end, sponsor and origin become the ordinary
 * grant's). Answers `inserted`, `replacedEmergency` or `existing` (nothing changed).
 */
export async function grantRole(
  tx: Tx,
  grant: {
    accountId: string;
    organizationId: string;
    grantedBy: string;
    requestItemId: string | null;
    at: Date;
    expiresAt: Date;
    emergencyId?: string;
  },
): Promise<'inserted' | 'replacedEmergency' | 'existing'> {
  const row = await tx
    .insertInto('role_grants')
    .values({
      account_id: grant.accountId,
      organization_id: grant.organizationId,
      granted_by: grant.grantedBy,
      request_item_id: grant.requestItemId,
      granted_at: grant.at,
      expires_at: grant.expiresAt,
      sponsor_id: grant.grantedBy,
      emergency_id: grant.emergencyId ?? null,
    })
    .onConflict((oc) =>
      grant.emergencyId
        ? oc.columns(['account_id', 'organization_id']).doNothing()
        : oc
            .columns(['account_id', 'organization_id'])
            .doUpdateSet((eb) => ({
              granted_by: eb.ref('excluded.granted_by'),
              request_item_id: eb.ref('excluded.request_item_id'),
              granted_at: eb.ref('excluded.granted_at'),
              expires_at: eb.ref('excluded.expires_at'),
              sponsor_id: eb.ref('excluded.sponsor_id'),
              emergency_id: null,
            }))
            .where('role_grants.emergency_id', 'is not', null),
    )
    // xmax is 0 for a row this statement inserted, the updating transaction's id for a replaced one.
    .returning(sql<boolean>`(xmax::text = '0')`.as('inserted'))
    .executeTakeFirst();
  if (!row) return 'existing';
  return row.inserted ? 'inserted' : 'replacedEmergency';
}

/** Takes the organization's role from the account. */
export async function removeRole(tx: Tx, accountId: string, organizationId: string): Promise<void> {
  await tx
    .deleteFrom('role_grants')
    .where('account_id', '=', accountId)
    .where('organization_id', '=', organizationId)
    .execute();
}

/** Takes every role of `organizationIds` from every one of `accountIds`, in one statement. */
/** What grant_history keeps of an ended grant: its row, and when, why and by whom it ended. */
const HISTORY_COLUMNS = [
  'account_id',
  'organization_id',
  'granted_at',
  'granted_by',
  'expires_at',
  'ended_at',
  'end_reason',
  'ended_by',
  'sponsor_id',
] as const;

export async function removeRolesIn(
  tx: Tx,
  accountIds: readonly string[],
  organizationIds: readonly string[],
  end: { at: Date; endedBy: string | null; terminated: readonly string[] },
): Promise<void> {
  if (accountIds.length === 0 || organizationIds.length === 0) return;
  // The ended grants move to grant_history in the same statement (`terminated` for the accounts the
  // change terminates, `removed` for those that keep another organization's role).
  await tx
    .with('ended', (db) =>
      db
        .deleteFrom('role_grants')
        .where('account_id', 'in', accountIds)
        .where('organization_id', 'in', organizationIds)
        .returningAll(),
    )
    .insertInto('grant_history')
    .columns(HISTORY_COLUMNS)
    .expression((eb) =>
      eb
        .selectFrom('ended')
        .select((s) => [
          'ended.account_id',
          'ended.organization_id',
          'ended.granted_at',
          'ended.granted_by',
          'ended.expires_at',
          s.val(end.at).as('ended_at'),
          end.terminated.length > 0
            ? s
                .case()
                .when('ended.account_id', 'in', end.terminated)
                .then(sql.lit('terminated'))
                .else(sql.lit('removed'))
                .end()
                .as('end_reason')
            : sql.lit('removed').as('end_reason'),
          s.val(end.endedBy).as('ended_by'),
          'ended.sponsor_id',
        ]),
    )
    .execute();
}

/** The organizations whose role the account holds, by name. */
export async function organizationsOfAccount(db: Db | Tx, accountId: string) {
  return db
    .selectFrom('role_grants as g')
    .innerJoin('organizations as o', 'o.id', 'g.organization_id')
    .select(['o.id', 'o.name'])
    .where('g.account_id', '=', accountId)
    .orderBy('o.name')
    .execute();
}

/**
 * The organizations whose role the account holds, read with the account row locked for the rest of
 * the transaction: two changes of one person's roles (a removal approved while another is made)
 * take turns, so the last-organization rule sees the other's result.
 */
export async function lockedRoleOrganizations(tx: Tx, accountId: string): Promise<string[]> {
  await tx.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().execute();
  const rows = await tx
    .selectFrom('role_grants')
    .select('organization_id')
    .where('account_id', '=', accountId)
    .execute();
  return rows.map((r) => r.organization_id);
}

/** The ids of the organizations the account manages as a BRM. */
export async function managedOrganizationIds(db: Db | Tx, accountId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('brm_assignments')
    .select('organization_id')
    .where('account_id', '=', accountId)
    .execute();
  return rows.map((r) => r.organization_id);
}

/** The emails of the organization's active BRMs. */
export async function activeBrmEmails(db: Db | Tx, organizationId: string): Promise<string[]> {
  const brms = await db
    .selectFrom('accounts as a')
    .innerJoin('brm_assignments as b', 'b.account_id', 'a.id')
    .select('a.email')
    .where('b.organization_id', '=', organizationId)
    .where('a.status', '=', 'active')
    .where(hasKindSql('a', 'employeeBrm'))
    .execute();
  return brms.map((r) => r.email);
}

/** The organizations an employee BRM manages, by name. */
export async function managedOrganizations(db: Db | Tx, accountId: string) {
  return db
    .selectFrom('brm_assignments as b')
    .innerJoin('organizations as o', 'o.id', 'b.organization_id')
    .select(['o.id', 'o.name'])
    .where('b.account_id', '=', accountId)
    .orderBy('o.name')
    .execute();
}

/** Which organizations' roles each of the accounts holds. */
export async function grantsOf(db: Db | Tx, accountIds: readonly string[]) {
  return inChunks(accountIds, (chunk) =>
    db
      .selectFrom('role_grants')
      .select(['account_id', 'organization_id'])
      .where('account_id', 'in', chunk)
      .execute(),
  );
}

export async function insertAssignment(tx: Tx, accountId: string, organizationId: string): Promise<boolean> {
  const result = await tx
    .insertInto('brm_assignments')
    .values({ account_id: accountId, organization_id: organizationId })
    .onConflict((oc) => oc.columns(['account_id', 'organization_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteAssignment(tx: Tx, accountId: string, organizationId: string): Promise<boolean> {
  const result = await tx
    .deleteFrom('brm_assignments')
    .where('account_id', '=', accountId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Makes the employee a BRM of the organization (the demo data: the pair is new). */
export async function insertBrmAssignment(tx: Tx, accountId: string, organizationId: string): Promise<void> {
  await tx
    .insertInto('brm_assignments')
    .values({ account_id: accountId, organization_id: organizationId })
    .execute();
}

/** Gives the vendor the organization's role, granted by nobody (the demo data: the pair is new). */
export async function insertRoleGrant(tx: Tx, accountId: string, organizationId: string): Promise<void> {
  await tx
    .insertInto('role_grants')
    .values({
      account_id: accountId,
      organization_id: organizationId,
      granted_by: null,
      request_item_id: null,
    })
    .execute();
}

/** A grant as governance reads it: who, which organization, until when, sponsored by whom. */
export interface GrantKey {
  account_id: string;
  organization_id: string;
}

/**
 * Grants ending by `by` (and after `from`, when given), after `cursor` in (account, organization)
 * order: the sweep's batches, a keyset walk that role_grants_expires_idx serves. Without `from`:
 * the grants whose end has come; with it: those ending in a window (notices, digests).
 */
export async function grantsEnding(
  db: Db,
  window: { from?: Date; by: Date },
  cursor: GrantKey | null,
  limit: number,
) {
  let query = db
    .selectFrom('role_grants')
    .select(['account_id', 'organization_id', 'expires_at'])
    .where('expires_at', '<=', window.by)
    // Emergency grants end in their own step (identity/governance/emergency.ts), without notices.
    .where('emergency_id', 'is', null);
  if (window.from) query = query.where('expires_at', '>', window.from);
  if (cursor) {
    query = query.where((eb) =>
      eb(
        eb.refTuple('account_id', 'organization_id'),
        '>',
        eb.tuple(cursor.account_id, cursor.organization_id),
      ),
    );
  }
  return query.orderBy('account_id').orderBy('organization_id').limit(limit).execute();
}

/** Counts grants ending by `until` (for `governance status`). */
export async function countGrantsEndingBy(db: Db, until: Date): Promise<number> {
  const row = await db
    .selectFrom('role_grants')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('expires_at', '<=', until)
    .where('emergency_id', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Ends a grant: the role_grants row moves to grant_history with why, when and by whom, in one
 * statement. With `dueBy`, only a grant whose end has come by then (the sweep: a grant extended
 * since it was listed stays). Returns the ended grant, or undefined when there was none to end.
 */
export async function endGrant(
  tx: Tx,
  grant: GrantKey & {
    at: Date;
    reason: 'expired' | 'removed' | 'revoked' | 'defaultRemoved' | 'terminated' | 'emergencyEnded';
    endedBy: string | null;
    dueBy?: Date;
    /** Only the grant this emergency made (not an ordinary grant that replaced it). */
    emergencyId?: string;
  },
) {
  return tx
    .with('ended', (db) => {
      let del = db
        .deleteFrom('role_grants')
        .where('account_id', '=', grant.account_id)
        .where('organization_id', '=', grant.organization_id);
      if (grant.dueBy) del = del.where('expires_at', '<=', grant.dueBy);
      if (grant.emergencyId) del = del.where('emergency_id', '=', grant.emergencyId);
      return del.returningAll();
    })
    .insertInto('grant_history')
    .columns(HISTORY_COLUMNS)
    .expression((eb) =>
      eb
        .selectFrom('ended')
        .select((s) => [
          'ended.account_id',
          'ended.organization_id',
          'ended.granted_at',
          'ended.granted_by',
          'ended.expires_at',
          s.val(grant.at).as('ended_at'),
          s.val(grant.reason).as('end_reason'),
          s.val(grant.endedBy).as('ended_by'),
          'ended.sponsor_id',
        ]),
    )
    .returning(['account_id', 'organization_id', 'granted_at', 'expires_at', 'sponsor_id'])
    .executeTakeFirst();
}

/** An ended grant with what its audit event and mail name (the vendor, the organization). */
export interface EndedGrant extends GrantKey {
  expires_at: Date;
  sponsor_id: string | null;
  username: string;
  email: string;
  given_name: string;
  organization: string;
}

/**
 * The sweep: ends those of the grants whose end has come by `dueBy` (a grant extended or removed
 * since it was listed stays as it is), moving them to grant_history (`expired`, by nobody) in one
 * statement. Returns the grants it ended.
 */
export async function endDueGrants(
  tx: Tx,
  keys: readonly GrantKey[],
  end: { at: Date; dueBy: Date },
): Promise<EndedGrant[]> {
  if (keys.length === 0) return [];
  const pairs = sql.join(keys.map((k) => sql`(${k.account_id}::uuid, ${k.organization_id}::uuid)`));
  const { rows } = await sql<EndedGrant>`
    with ended as (
      delete from role_grants
      where (account_id, organization_id) in (${pairs}) and expires_at <= ${end.dueBy}
        and emergency_id is null
      returning *),
    moved as (
      insert into grant_history (${sql.join(HISTORY_COLUMNS.map((c) => sql.ref(c)))})
      select account_id, organization_id, granted_at, granted_by, expires_at, ${end.at}::timestamptz,
             'expired', null::uuid, sponsor_id
      from ended)
    select e.account_id, e.organization_id, e.expires_at, e.sponsor_id,
           a.username, a.email, a.given_name, o.name as organization
    from ended e
    join accounts a on a.id = e.account_id
    join organizations o on o.id = e.organization_id
    order by e.account_id, e.organization_id`.execute(tx);
  return rows;
}

/** A grant with what its mails and audit events name: the vendor and the organization with its tier. */
export async function grantDetails(db: Db | Tx, key: GrantKey) {
  return db
    .selectFrom('role_grants as g')
    .innerJoin('accounts as a', 'a.id', 'g.account_id')
    .innerJoin('organizations as o', 'o.id', 'g.organization_id')
    .select([
      'g.account_id',
      'g.organization_id',
      'g.expires_at',
      'g.sponsor_id',
      'a.username',
      'a.email',
      'a.given_name',
      'a.status',
      'o.name as organization',
      'o.risk_tier',
    ])
    .where('g.account_id', '=', key.account_id)
    .where('g.organization_id', '=', key.organization_id)
    .executeTakeFirst();
}

/** The account's current grants with their end and sponsor (the vendor's Current Access). */
export async function currentGrantsOf(db: Db | Tx, accountId: string) {
  return db
    .selectFrom('role_grants as g')
    .innerJoin('organizations as o', 'o.id', 'g.organization_id')
    .leftJoin('accounts as s', 's.id', 'g.sponsor_id')
    .select([
      'o.id',
      'o.name',
      'g.expires_at',
      's.given_name as sponsorGivenName',
      's.family_name as sponsorFamilyName',
      's.email as sponsorEmail',
    ])
    .where('g.account_id', '=', accountId)
    .orderBy('o.name')
    .execute();
}

/**
 * The account's grant of the organization, locked for the rest of the transaction (an end-date
 * change and an expiry or a removal of the same grant take turns), or undefined when it holds none.
 */
export async function lockedGrant(tx: Tx, key: GrantKey) {
  return tx
    .selectFrom('role_grants')
    .select(['account_id', 'organization_id', 'expires_at', 'sponsor_id'])
    .where('account_id', '=', key.account_id)
    .where('organization_id', '=', key.organization_id)
    .forUpdate()
    .executeTakeFirst();
}

/** Moves a current grant's end and makes `sponsorId` its sponsor of record; false when there is no grant. */
export async function setGrantEnd(
  tx: Tx,
  grant: GrantKey & { expiresAt: Date; sponsorId: string },
): Promise<boolean> {
  const result = await tx
    .updateTable('role_grants')
    .set({ expires_at: grant.expiresAt, sponsor_id: grant.sponsorId })
    .where('account_id', '=', grant.account_id)
    .where('organization_id', '=', grant.organization_id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** When each of the named grants ends (the ones that exist), in one statement by primary key. */
export async function grantEndsOf(db: Db | Tx, keys: readonly GrantKey[]) {
  if (keys.length === 0) return [];
  return db
    .selectFrom('role_grants')
    .select(['account_id', 'organization_id', 'expires_at'])
    .where((eb) =>
      eb.or(
        keys.map((k) =>
          eb.and([eb('account_id', '=', k.account_id), eb('organization_id', '=', k.organization_id)]),
        ),
      ),
    )
    .execute();
}
