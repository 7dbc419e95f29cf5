import { accessMessages } from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import type { Account } from '../../platform/db-schema';
import { findAccountById } from '../../store/accounts';
import { auditingDenials, recordAudit } from '../../identity/audit';
import { loadActor } from '../../policies/actor';
import * as requestPolicy from '../../policies/request';
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
      const by = await loadActor(tx, actor);
      const beneficiaryId = request?.beneficiary_id ?? null;
      if (!request || request.status !== 'pending' || !requestPolicy.canSee(by, { beneficiaryId })) {
        throw new AppError('notFound', accessMessages.requestNotFound);
      }
      const isOwn = beneficiaryId === actor.id;
      const items = await pendingItemsOfRequest(tx, request.id);
      // The audit names the vendor whose request it is, whoever cancels it.
      const vendor = isOwn
        ? actor
        : request.beneficiary_id
          ? await findAccountById(tx, request.beneficiary_id)
          : undefined;
      const target = { id: request.beneficiary_id, username: vendor?.username ?? '' };
      const mine = items.filter((i) =>
        requestPolicy.can(by, 'cancel', { organizationId: i.organization_id, beneficiaryId }),
      );
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
