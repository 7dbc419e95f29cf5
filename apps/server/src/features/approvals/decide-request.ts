import { approvalMessages, registrationMessages, type Decision } from '@pra/contracts';
import type { AppContext } from '../../http/context';
import { AppError } from '../../http/errors';
import { recordAudit } from '../../identity/audit';
import { registrationDeniedMail } from '../../identity/mail-templates';
import { enqueueMail } from '../../identity/outbox';
import { mailSite, provisionAccount } from '../../identity/provision-account';
import type { Tx } from '../../platform/db';
import type { Account } from '../../platform/db-schema';
import { emailUse, lockEmail } from '../registration/queries';
import { canDecide } from './policies';
import { decideItem, findRequest, itemsOfRequest, managedOrganizationIds, settleRequest } from './queries';

export const requestNotFound = 'This request was not found.';

type Request = NonNullable<Awaited<ReturnType<typeof findRequest>>>;
type Item = Awaited<ReturnType<typeof itemsOfRequest>>[number];

/**
 * Approves or rejects the pending items of a request that the actor may decide (one item when
 * `workItemId` names it), and carries out what the decision means, all in one transaction.
 */
export async function decideRequest(options: {
  ctx: AppContext;
  actor: Account;
  requestId: string;
  workItemId?: string | undefined;
  decision: Decision;
  comment: string;
  clientAddress: string;
}): Promise<void> {
  const { ctx, actor, decision, comment, clientAddress } = options;
  await ctx.db.transaction().execute(async (tx) => {
    const request = await findRequest(tx, options.requestId);
    if (!request) throw new AppError('notFound', requestNotFound);
    const all = await itemsOfRequest(tx, request.id);
    const targeted = options.workItemId ? all.filter((i) => i.id === options.workItemId) : all;
    if (targeted.length === 0) throw new AppError('notFound', requestNotFound);

    const decider = {
      isAdmin: actor.is_admin,
      isEmployeeBrm: actor.is_employee_brm,
      managedOrganizationIds: await managedOrganizationIds(tx, actor.id),
    };
    const mine = targeted.filter((i) => canDecide(decider, { organizationId: i.organization_id }));
    if (mine.length === 0) throw new AppError('forbidden', approvalMessages.notYourOrganization);
    const pending = mine.filter((i) => i.status === 'pending');
    if (pending.length === 0) throw new AppError('conflict', approvalMessages.alreadyDecided);

    const status = decision === 'APPROVE' ? 'approved' : 'denied';
    for (const item of pending) {
      const won = await decideItem(tx, { id: item.id, status, deciderId: actor.id, comment });
      // Lost a race with another decision: roll back everything this call did.
      if (!won) throw new AppError('conflict', approvalMessages.alreadyDecided);
      await recordAudit(tx, {
        action: decision === 'APPROVE' ? 'request.approve' : 'request.deny',
        outcome: 'success',
        actor: { id: actor.id, username: actor.username },
        target: {
          id: request.beneficiary_id,
          username: request.beneficiaryUsername ?? request.email,
        },
        organizationId: item.organization_id,
        clientAddress,
        details: { requestId: request.id, workItemId: item.id, type: request.type },
      });
    }
    await settleRequest(tx, request.id);
    await carryOut(tx, { ctx, actor, request, items: pending, decision, comment, clientAddress });
  });
}

/** What a decision does beyond recording it. */
async function carryOut(
  tx: Tx,
  o: {
    ctx: AppContext;
    actor: Account;
    request: Request;
    items: Item[];
    decision: Decision;
    comment: string;
    clientAddress: string;
  },
): Promise<void> {
  const { ctx, request, items } = o;
  if (request.type === 'New Account') {
    if (o.decision === 'DENY') {
      await enqueueMail(tx, {
        to: request.email,
        ...registrationDeniedMail(mailSite(ctx), {
          firstName: request.first_name,
          organization: items.map((i) => i.orgName).join(', '),
          justification: o.comment,
        }),
      });
      return;
    }
    // Another account may have taken the address since the registration (e.g. a BRM's).
    await lockEmail(tx, request.email);
    if ((await emailUse(tx, request.email)) === 'activeAccount') {
      throw new AppError('conflict', registrationMessages.emailInUseAdmin);
    }
    await provisionAccount(tx, ctx, {
      actor: o.actor,
      registration: {
        requestId: request.id,
        firstName: request.first_name,
        lastName: request.last_name,
        email: request.email,
        jobTitle: request.job_title,
        manager: request.manager,
      },
      grants: items.map((i) => ({
        organizationId: i.organization_id,
        organizationName: i.orgName,
        requestItemId: i.id,
      })),
      clientAddress: o.clientAddress,
    });
    return;
  }
  if (o.decision === 'DENY' || !request.beneficiary_id) return;
  for (const item of items) {
    if (item.operation === 'Add') {
      await tx
        .insertInto('role_grants')
        .values({
          account_id: request.beneficiary_id,
          organization_id: item.organization_id,
          granted_by: o.actor.id,
          request_item_id: item.id,
        })
        .onConflict((oc) => oc.columns(['account_id', 'organization_id']).doNothing())
        .execute();
    } else {
      await tx
        .deleteFrom('role_grants')
        .where('account_id', '=', request.beneficiary_id)
        .where('organization_id', '=', item.organization_id)
        .execute();
    }
    await recordAudit(tx, {
      action: item.operation === 'Add' ? 'role.grant' : 'role.remove',
      outcome: 'success',
      actor: { id: o.actor.id, username: o.actor.username },
      target: { id: request.beneficiary_id, username: request.beneficiaryUsername ?? '' },
      organizationId: item.organization_id,
      clientAddress: o.clientAddress,
      details: { requestItemId: item.id },
    });
  }
}
