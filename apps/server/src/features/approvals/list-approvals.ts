import {
  answeredPage,
  pageRequest,
  roleName,
  type ApprovalSortKey,
  type PendingApproval,
  type PendingApprovalsPage,
} from '@pra/contracts';
import type { Db } from '../../platform/db';
import type { Account } from '../../platform/db-schema';
import { loadActor, principalOf, type Actor } from '../../policies/actor';
import * as request from '../../policies/request';
import {
  countDecidableItems,
  countDecidableItemsMatching,
  listDecidableItems,
  pageDecidableItems,
  type DecidableItemRow,
} from '../../store/requests';

/** Spec section 9: the approvals page size, when the query names none. */
export const APPROVALS_PAGE_SIZE = 5;

/** One approvals-page row for a pending item, with the actor's right to decide it. */
function toPendingApproval(row: DecidableItemRow, actor: Actor): PendingApproval {
  // A registration describes the person itself; access requests are about an existing account.
  const isNewAccount = row.type === 'New Account';
  const email = isNewAccount ? row.email : (row.beneficiaryEmail ?? row.email);
  return {
    requestId: row.requestId,
    workItemId: row.itemId,
    workItemName: `${row.type} for ${email}`,
    type: row.type,
    firstname: isNewAccount ? row.first_name : (row.beneficiaryGivenName ?? row.first_name),
    lastname: isNewAccount ? row.last_name : (row.beneficiaryFamilyName ?? row.last_name),
    email,
    name: row.beneficiaryUsername ?? '',
    org: row.orgName,
    created: new Date(row.created_at).toISOString(),
    // The activation code is claimed once the account is active; a registration has no account yet.
    praclaimed: String(row.beneficiaryStatus === 'active'),
    jobTitle: isNewAccount ? row.job_title : (row.beneficiaryJobTitle ?? row.job_title),
    manager: isNewAccount ? row.manager : (row.beneficiaryManager ?? row.manager),
    description: `${row.type} request for ${roleName(row.orgName)}`,
    comment: row.comment,
    commentAuthor: row.requesterUsername ?? row.email,
    canDecide: request.can(actor, 'decide', row),
  };
}

/** The pending items the account may decide, newest first. */
export async function listPendingApprovals(db: Db, account: Account): Promise<PendingApproval[]> {
  const actor = await loadActor(db, account);
  const scope = request.scopeOf(actor, 'i');
  return (await listDecidableItems(db, scope)).map((row) => toPendingApproval(row, actor));
}

/** One page of the pending items the account may decide, filtered and sorted by the database. */
export async function pagePendingApprovals(
  db: Db,
  account: Account,
  query: {
    page?: number;
    size?: number;
    filter?: string;
    sort?: ApprovalSortKey;
    direction?: 'asc' | 'desc';
  },
): Promise<PendingApprovalsPage> {
  const asked = pageRequest(query, APPROVALS_PAGE_SIZE);
  const actor = await loadActor(db, account);
  const scope = request.scopeOf(actor, 'i');
  const { total, matching } = await countDecidableItemsMatching(db, scope, asked.filter);
  const page = answeredPage(asked.page, asked.size, matching);
  const rows =
    matching === 0
      ? []
      : await pageDecidableItems(db, scope, {
          filter: asked.filter,
          sort: asked.sort,
          direction: asked.direction,
          offset: (page - 1) * asked.size,
          limit: asked.size,
        });
  return { items: rows.map((row) => toPendingApproval(row, actor)), total, matching, page, size: asked.size };
}

/** How many pending items the account may decide (the approvals badge). */
export async function countPendingApprovals(db: Db, account: Account): Promise<number> {
  return countDecidableItems(db, request.scopeOf(principalOf(account), 'i'));
}
