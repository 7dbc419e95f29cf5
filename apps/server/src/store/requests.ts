import { sql, type RawBuilder } from 'kysely';
import type { Db, Tx } from '../platform/db';
import { containsPattern } from './like';

// The owner of `requests` and their `request_items`.

/** Records the account a request created. */
export async function setBeneficiary(tx: Tx, requestId: string, accountId: string): Promise<void> {
  await tx.updateTable('requests').set({ beneficiary_id: accountId }).where('id', '=', requestId).execute();
}

/** Whether a pending registration (New Account) has the email (`folded`: lowercase). */
export async function pendingRegistrationHasEmail(db: Db | Tx, folded: string): Promise<boolean> {
  const pending = await db
    .selectFrom('requests')
    .select('id')
    .where(sql<string>`lower(email)`, '=', folded)
    .where('type', '=', 'New Account')
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return pending !== undefined;
}

/**
 * A `New Account` request and its one item for the organization: pending for a self-registration,
 * already approved (decided by `decidedBy`, now) when a BRM or admin registers on the vendor's behalf.
 */
export async function insertRegistration(
  tx: Tx,
  r: {
    status: 'pending' | 'approved';
    requesterId: string | null;
    firstName: string;
    lastName: string;
    email: string;
    comment: string;
    organizationId: string;
    decidedBy: string | null;
    /** The clock's now, and the item's decision deadline. */
    now: Date;
    expiresAt: Date;
  },
): Promise<{ requestId: string; itemId: string }> {
  const { id: requestId } = await tx
    .insertInto('requests')
    .values({
      type: 'New Account',
      status: r.status,
      requester_id: r.requesterId,
      first_name: r.firstName,
      last_name: r.lastName,
      email: r.email,
      comment: r.comment,
      created_at: r.now,
      updated_at: r.now,
      expires_at: r.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id: itemId } = await tx
    .insertInto('request_items')
    .values({
      request_id: requestId,
      organization_id: r.organizationId,
      operation: 'Add',
      status: r.status,
      decided_by: r.decidedBy,
      decided_at: r.decidedBy ? r.now : null,
      created_at: r.now,
      expires_at: r.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { requestId, itemId };
}

/**
 * The pending request items in `scope`, a condition on the item (alias `i`) that the caller takes
 * from the request policy (policies/request.ts scopeOf: all for an admin, those of its managed
 * organizations for a BRM, none for anyone else). The count and the list build on it.
 */
function pendingItemsIn(db: Db | Tx, scope: RawBuilder<boolean>) {
  return db.selectFrom('request_items as i').where('i.status', '=', 'pending').where(scope);
}

/** How many pending request items the account may decide. */
export async function countDecidableItems(db: Db | Tx, scope: RawBuilder<boolean>): Promise<number> {
  const row = await pendingItemsIn(db, scope)
    .select(sql<number>`count(*)::int`.as('count'))
    .executeTakeFirst();
  return row?.count ?? 0;
}

/** The pending items in `scope` with what the approvals page shows of each (aliases as below). */
function decidableItems(db: Db | Tx, scope: RawBuilder<boolean>) {
  return pendingItemsIn(db, scope)
    .innerJoin('requests as r', 'r.id', 'i.request_id')
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .leftJoin('accounts as requester', 'requester.id', 'r.requester_id')
    .leftJoin('accounts as beneficiary', 'beneficiary.id', 'r.beneficiary_id')
    .leftJoin('role_grants as g', (join) =>
      join
        .onRef('g.account_id', '=', 'r.beneficiary_id')
        .onRef('g.organization_id', '=', 'i.organization_id'),
    );
}

/** What the approvals page shows of each item. */
const DECIDABLE_COLUMNS = [
  'i.id as itemId',
  'i.organization_id as organizationId',
  'i.expires_at as expiresAt',
  'i.forwarded_at as forwardedAt',
  'i.created_at as itemCreatedAt',
  'i.operation',
  'i.requested_until as requestedUntil',
  'o.risk_tier as riskTier',
  'o.contract_ends_on as contractEndsOn',
  'r.id as requestId',
  'r.beneficiary_id as beneficiaryId',
  'r.type',
  'r.first_name',
  'r.last_name',
  'r.email',
  'r.job_title',
  'r.manager',
  'r.comment',
  'r.created_at',
  'o.name as orgName',
  'requester.username as requesterUsername',
  'beneficiary.username as beneficiaryUsername',
  'beneficiary.given_name as beneficiaryGivenName',
  'beneficiary.family_name as beneficiaryFamilyName',
  'beneficiary.email as beneficiaryEmail',
  'beneficiary.job_title as beneficiaryJobTitle',
  'beneficiary.manager as beneficiaryManager',
  'beneficiary.status as beneficiaryStatus',
] as const;

/** The pending items the account may decide, newest first, with what the approvals page shows of each. */
export async function listDecidableItems(db: Db | Tx, scope: RawBuilder<boolean>) {
  return decidableItems(db, scope)
    .select(DECIDABLE_COLUMNS)
    .orderBy('r.created_at', 'desc')
    .orderBy('i.id')
    .execute();
}

/** The sortable columns of the approvals table (contracts' pendingApprovalsQuery). */
export type ApprovalSortKey = 'firstname' | 'lastname' | 'email' | 'type' | 'org' | 'created';

// What the approvals page shows of the person (features/approvals/list-approvals.ts): a
// registration's own fields, an access request's account's fields where it has one.
const shown = (own: string, account: string) =>
  sql<string>`(case when r.type = 'New Account' then r.${sql.ref(own)} else coalesce(beneficiary.${sql.ref(account)}, r.${sql.ref(own)}) end)`;
const firstname = shown('first_name', 'given_name');
const lastname = shown('last_name', 'family_name');
const email = shown('email', 'email');

const approvalSortKeys: Record<ApprovalSortKey, RawBuilder<unknown>> = {
  firstname: sql`lower(${firstname})`,
  lastname: sql`lower(${lastname})`,
  email: sql`lower(${email})`,
  type: sql`lower(r.type)`,
  org: sql`lower(o.name)`,
  // The page sorted the times it was sent, to the millisecond.
  created: sql`date_trunc('milliseconds', r.created_at)`,
};

/**
 * What the approvals filter searches: first and last name, "first last" (or the email when a name
 * part is empty), username, email and organization, between separators a filter may not hold.
 */
const approvalSearchText = sql<string>`lower(concat_ws(chr(31), ${firstname}, ${lastname},
  case when ${firstname} <> '' and ${lastname} <> '' then ${firstname} || ' ' || ${lastname} else ${email} end,
  coalesce(beneficiary.username, ''), ${email}, o.name))`;

/**
 * How many items are in `scope` (`total`, the pending items alone) and how many the filter
 * matches (`matching`, which reads what the page shows of each).
 */
export async function countDecidableItemsMatching(db: Db | Tx, scope: RawBuilder<boolean>, filter: string) {
  const total = await countDecidableItems(db, scope);
  if (!filter) return { total, matching: total };
  const row = await decidableItems(db, scope)
    .select(sql<number>`count(*)::int`.as('n'))
    .where(sql<boolean>`${approvalSearchText} like ${containsPattern(filter)}`)
    .executeTakeFirstOrThrow();
  return { total, matching: row.n };
}

/**
 * One page of the pending items in `scope` that the filter matches, sorted by the column when one
 * is named (ties, and no column, in the list's own order: newest first).
 */
export async function pageDecidableItems(
  db: Db | Tx,
  scope: RawBuilder<boolean>,
  page: {
    filter: string;
    sort: ApprovalSortKey | undefined;
    direction: 'asc' | 'desc';
    offset: number;
    limit: number;
  },
) {
  let query = decidableItems(db, scope).select(DECIDABLE_COLUMNS);
  if (page.filter)
    query = query.where(sql<boolean>`${approvalSearchText} like ${containsPattern(page.filter)}`);
  if (page.sort) query = query.orderBy(approvalSortKeys[page.sort], page.direction);
  return query
    .orderBy('r.created_at', 'desc')
    .orderBy('i.id')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
}

export type DecidableItemRow = Awaited<ReturnType<typeof listDecidableItems>>[number];

/**
 * A request, with its beneficiary's username once it has an account, locked for the rest of the
 * transaction: two people deciding different items of one request then take turns, so the second
 * sees the first's decision when it settles the request.
 */
export async function findRequestForUpdate(tx: Tx, requestId: string) {
  return tx
    .selectFrom('requests as r')
    .leftJoin('accounts as b', 'b.id', 'r.beneficiary_id')
    .leftJoin('accounts as q', 'q.id', 'r.requester_id')
    .selectAll('r')
    .select([
      'b.username as beneficiaryUsername',
      'q.email as requesterEmail',
      'q.given_name as requesterGivenName',
    ])
    .where('r.id', '=', requestId)
    .forUpdate(['r'])
    .executeTakeFirst();
}

export async function itemsOfRequest(db: Db | Tx, requestId: string) {
  return db
    .selectFrom('request_items as i')
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .select([
      'i.id',
      'i.organization_id',
      'i.operation',
      'i.status',
      'i.created_at',
      'i.forwarded_at',
      'i.requested_until',
      'o.name as orgName',
      'o.is_active as orgActive',
    ])
    .where('i.request_id', '=', requestId)
    .orderBy('i.created_at')
    .execute();
}

/**
 * Closes the named items that are still pending (decided, or cancelled), recording who and why,
 * and answers how many it closed: of two concurrent closings of one item, exactly one gets the row
 * (the other waits for the row lock, then finds it no longer pending).
 */
async function closePendingItems(
  tx: Tx,
  ids: string[],
  close: { status: 'approved' | 'denied' | 'cancelled'; deciderId: string; comment: string; at?: Date },
): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await tx
    .updateTable('request_items')
    .set({
      status: close.status,
      decided_by: close.deciderId,
      decided_at: close.at ?? sql<Date>`now()`,
      decision_comment: close.comment,
    })
    .where('id', 'in', ids)
    .where('status', '=', 'pending')
    .returning('id')
    .execute();
  return rows.length;
}

/** Marks the item decided only if it is still pending (see closePendingItems). */
export async function decideItem(
  tx: Tx,
  item: { id: string; status: 'approved' | 'denied'; deciderId: string; comment: string; at: Date },
): Promise<boolean> {
  return (await closePendingItems(tx, [item.id], item)) > 0;
}

/** Closes the request once none of its items is pending: approved if any item was. */
export async function settleRequest(tx: Tx, requestId: string): Promise<void> {
  await sql`
    update requests set
      status = case when exists (select 1 from request_items where request_id = ${requestId} and status = 'approved')
                    then 'approved' else 'denied' end,
      updated_at = now()
    where id = ${requestId} and status = 'pending'
      and not exists (select 1 from request_items where request_id = ${requestId} and status = 'pending')`.execute(
    tx,
  );
}

/**
 * The pending Add Access, Remove Access and Extend Access items for the account, with their
 * request and who asked.
 */
export async function pendingItems(db: Db | Tx, accountId: string) {
  return db
    .selectFrom('request_items as i')
    .innerJoin('requests as r', 'r.id', 'i.request_id')
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .leftJoin('accounts as requester', 'requester.id', 'r.requester_id')
    .select([
      'r.id as requestId',
      'i.id as itemId',
      'i.organization_id as organizationId',
      'o.name as orgName',
      'i.operation',
      'i.created_at',
      'i.expires_at',
      'i.reminded_at',
      'i.requested_until',
      'requester.username as owner',
    ])
    .where('r.beneficiary_id', '=', accountId)
    .where('r.type', 'in', ['Add Access', 'Remove Access', 'Extend Access'])
    .where('i.status', '=', 'pending')
    .orderBy('r.created_at')
    .orderBy('o.name')
    .$narrowType<{ operation: 'Add' | 'Remove' | 'Extend' }>()
    .execute();
}

/**
 * One Add Access, Remove Access or Extend Access request with an item per organization: pending
 * for the BRMs, or already approved by `decidedBy` when a BRM or admin makes the change itself.
 * An Extend Access item carries the end asked for (`requestedUntil`).
 */
export async function insertAccessRequest(
  tx: Tx,
  r: {
    type: 'Add Access' | 'Remove Access' | 'Extend Access' | 'Emergency Access' | 'Departure Reported';
    status: 'pending' | 'approved';
    requesterId: string;
    beneficiary: { id: string; given_name: string; family_name: string; email: string };
    comment: string;
    organizationIds: string[];
    decidedBy: string | null;
    /** The clock's now, and each organization's decision deadline. */
    now: Date;
    deadlines: ReadonlyMap<string, Date>;
    requestedUntil?: Date;
  },
): Promise<{ requestId: string; itemIds: Map<string, string> }> {
  const deadline = (organizationId: string) => r.deadlines.get(organizationId) ?? r.now;
  const { id: requestId } = await tx
    .insertInto('requests')
    .values({
      type: r.type,
      status: r.status,
      requester_id: r.requesterId,
      beneficiary_id: r.beneficiary.id,
      first_name: r.beneficiary.given_name,
      last_name: r.beneficiary.family_name,
      email: r.beneficiary.email,
      comment: r.comment,
      created_at: r.now,
      updated_at: r.now,
      expires_at: new Date(Math.min(...r.organizationIds.map((id) => deadline(id).getTime()))),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const decided = r.status === 'approved';
  const items = await tx
    .insertInto('request_items')
    .values(
      r.organizationIds.map((organizationId) => ({
        request_id: requestId,
        organization_id: organizationId,
        operation: OPERATIONS[r.type],
        status: r.status,
        requested_until: r.requestedUntil ?? null,
        decided_by: decided ? r.decidedBy : null,
        decided_at: decided ? r.now : null,
        decision_comment: decided ? r.comment : '',
        created_at: r.now,
        expires_at: deadline(organizationId),
      })),
    )
    .returning(['id', 'organization_id'])
    .execute();
  return { requestId, itemIds: new Map(items.map((i) => [i.organization_id, i.id])) };
}

const OPERATIONS = {
  'Add Access': 'Add',
  'Remove Access': 'Remove',
  'Extend Access': 'Extend',
  // GOVERNANCE.md §10: the follow-up of an emergency grant, and a reported departure.
  'Emergency Access': 'Acknowledge',
  'Departure Reported': 'Departure',
} as const;

/** An access request with its beneficiary, locked for the transaction (a cancel racing a decision waits). */
export async function findAccessRequestForUpdate(tx: Tx, requestId: string) {
  return tx
    .selectFrom('requests')
    .select(['id', 'type', 'status', 'beneficiary_id', 'requester_id'])
    .where('id', '=', requestId)
    .where('type', 'in', ['Add Access', 'Remove Access', 'Extend Access'])
    .forUpdate()
    .executeTakeFirst();
}

/** The request's items still pending. */
export async function pendingItemsOfRequest(tx: Tx, requestId: string) {
  return tx
    .selectFrom('request_items')
    .select(['id', 'organization_id'])
    .where('request_id', '=', requestId)
    .where('status', '=', 'pending')
    .execute();
}

/** Cancels the pending items named, recording who and why. */
export async function cancelItems(
  tx: Tx,
  o: { itemIds: string[]; actorId: string; reason: string },
): Promise<number> {
  return closePendingItems(tx, o.itemIds, { status: 'cancelled', deciderId: o.actorId, comment: o.reason });
}

/** Closes a request none of whose items is pending: approved or denied if any item was, else cancelled. */
export async function settleCancelledRequest(tx: Tx, requestId: string): Promise<void> {
  await sql`
    update requests set
      status = case
        when exists (select 1 from request_items where request_id = ${requestId} and status = 'approved') then 'approved'
        when exists (select 1 from request_items where request_id = ${requestId} and status = 'denied') then 'denied'
        else 'cancelled' end,
      updated_at = now()
    where id = ${requestId} and status = 'pending'
      and not exists (select 1 from request_items where request_id = ${requestId} and status = 'pending')`.execute(
    tx,
  );
}

/**
 * Cancels every pending item of requests for the account (the sweeper closing it: decided by
 * nobody, with `reason`) and settles their requests. Returns how many items it cancelled.
 */
export async function cancelPendingForAccount(
  tx: Tx,
  o: { accountId: string; reason: string; at: Date },
): Promise<number> {
  const items = await tx
    .updateTable('request_items')
    .set({ status: 'cancelled', decided_by: null, decided_at: o.at, decision_comment: o.reason })
    .where('status', '=', 'pending')
    .where('request_id', 'in', (eb) =>
      eb.selectFrom('requests').select('id').where('beneficiary_id', '=', o.accountId),
    )
    .returning('request_id')
    .execute();
  for (const requestId of new Set(items.map((i) => i.request_id)))
    await settleCancelledRequest(tx, requestId);
  return items.length;
}

/** The organizations for which an Extend Access item of the account is pending. */
export async function pendingExtensionOrganizations(db: Db | Tx, accountId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('request_items as i')
    .innerJoin('requests as r', 'r.id', 'i.request_id')
    .select('i.organization_id')
    .where('r.beneficiary_id', '=', accountId)
    .where('i.operation', '=', 'Extend')
    .where('i.status', '=', 'pending')
    .execute();
  return new Set(rows.map((r) => r.organization_id));
}

/** Records the end an approved item granted (an Extend Access item's new end). */
export async function setGrantedUntil(tx: Tx, itemId: string, until: Date): Promise<void> {
  await tx.updateTable('request_items').set({ granted_until: until }).where('id', '=', itemId).execute();
}

/**
 * Cancels the account's pending Extend Access items for the organization (its grant ended by a
 * removal), recording who and why; answers the requests they belonged to.
 */
export async function cancelPendingExtensions(
  tx: Tx,
  o: { accountId: string; organizationId: string; actorId: string; reason: string; at: Date },
): Promise<string[]> {
  const rows = await tx
    .updateTable('request_items')
    .set({ status: 'cancelled', decided_by: o.actorId, decided_at: o.at, decision_comment: o.reason })
    .where('status', '=', 'pending')
    .where('operation', '=', 'Extend')
    .where('organization_id', '=', o.organizationId)
    .where('request_id', 'in', (eb) =>
      eb.selectFrom('requests').select('id').where('beneficiary_id', '=', o.accountId),
    )
    .returning('request_id')
    .execute();
  return [...new Set(rows.map((r) => r.request_id))];
}
