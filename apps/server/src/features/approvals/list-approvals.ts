import { roleName, type PendingApproval } from '@pra/contracts';
import type { Db } from '../../platform/db';
import type { Account } from '../../platform/db-schema';
import { loadActor, principalOf, type Actor } from '../../policies/actor';
import * as request from '../../policies/request';
import { countDecidableItems, listDecidableItems, type DecidableItemRow } from '../../store/requests';

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

/** How many pending items the account may decide (the approvals badge). */
export async function countPendingApprovals(db: Db, account: Account): Promise<number> {
  return countDecidableItems(db, request.scopeOf(principalOf(account), 'i'));
}
