import { accessMessages } from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import type { Account } from '../../platform/db-schema';
import { isVendor } from '../../store/account-kinds';
import { findAccountById } from '../../store/accounts';
import { auditingDenials, recordAudit } from '../../identity/audit';
import { deciderOf } from '../../identity/deciders';
import {
  cancelItems,
  findAccessRequestForUpdate,
  pendingItemsOfRequest,
  settleCancelledRequest,
} from '../../store/requests';

/**
 * POST /api/vendor/access/pending/cancel: withdraws the pending items of an Add Access or Remove
 * Access request, with a reason. A vendor withdraws its own requests; a BRM the items of
 * organizations it manages; an admin any. Someone else's request reads as not found for a vendor.
 */
export async function cancelPendingAccess(o: {
  ctx: AppContext;
  actor: Account;
  requestId: string;
  reason: string;
  clientAddress: string;
}): Promise<void> {
  const { ctx, actor } = o;
  const who = { id: actor.id, username: actor.username };
  await auditingDenials(ctx.db, (deny) =>
    ctx.db.transaction().execute(async (tx) => {
      const request = await findAccessRequestForUpdate(tx, o.requestId);
      const isOwn = request?.beneficiary_id === actor.id;
      if (!request || request.status !== 'pending' || (isVendor(actor) && !isOwn)) {
        throw new AppError('notFound', accessMessages.requestNotFound);
      }
      const items = await pendingItemsOfRequest(tx, request.id);
      // The audit names the vendor whose request it is, whoever cancels it.
      const vendor = isOwn
        ? actor
        : request.beneficiary_id
          ? await findAccountById(tx, request.beneficiary_id)
          : undefined;
      const target = { id: request.beneficiary_id, username: vendor?.username ?? '' };
      let mine = items;
      if (!isVendor(actor)) {
        const decider = await deciderOf(tx, actor);
        mine = decider.isAdmin
          ? items
          : items.filter((i) => decider.managedOrganizationIds.has(i.organization_id));
        if (!decider.isAdmin && !decider.isEmployeeBrm) mine = [];
      }
      if (mine.length === 0) {
        deny({
          action: 'access.cancel',
          actor: who,
          target,
          clientAddress: o.clientAddress,
          details: { requestId: request.id, reason: 'notYourOrganization' },
        });
        throw new AppError('forbidden', accessMessages.noAccess);
      }
      const cancelled = await cancelItems(tx, {
        itemIds: mine.map((i) => i.id),
        actorId: actor.id,
        reason: o.reason,
      });
      if (cancelled !== mine.length) throw new AppError('conflict', accessMessages.requestNotFound);
      for (const item of mine) {
        await recordAudit(tx, {
          action: 'access.cancel',
          outcome: 'success',
          actor: who,
          target,
          organizationId: item.organization_id,
          clientAddress: o.clientAddress,
          details: { requestId: request.id, workItemId: item.id },
        });
      }
      await settleCancelledRequest(tx, request.id);
    }),
  );
}
