import {
  accessExpiryMessages,
  accessMessages,
  approvalMessages,
  registrationMessages,
  type Decision,
} from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import { auditingDenials, recordAudit } from '../../identity/audit';
import { accessDecidedMail, mailSite, registrationDeniedMail } from '../../identity/mail-templates';
import { enqueueMail } from '../../identity/outbox';
import { provisionAccount } from '../../identity/provision-account';
import { grantRole, leavesNoRole, removeRole } from '../../identity/roles';
import { chooseGrantEnd } from '../../identity/governance/grant-terms';
import { extensionDecidedMail } from '../../identity/governance/expiry-mails';
import { localDate } from '../../platform/local-time';
import { findAccountById } from '../../store/accounts';
import { lockedGrant, lockedRoleOrganizations, setGrantEnd } from '../../store/grants';
import type { Tx } from '../../platform/db';
import type { Account } from '../../platform/db-schema';
import { loadDecider } from '../../policies/actor';
import * as requestPolicy from '../../policies/request';
import { emailUse, lockEmail } from '../../identity/email-use';
import {
  decideItem,
  findRequestForUpdate,
  itemsOfRequest,
  setGrantedUntil,
  settleRequest,
} from '../../store/requests';

type Request = NonNullable<Awaited<ReturnType<typeof findRequestForUpdate>>>;
type Item = Awaited<ReturnType<typeof itemsOfRequest>>[number];
type OnBehalf = { delegate: string; delegator: string };

const personName = (a: Account) => `${a.given_name} ${a.family_name}`.trim() || a.username;

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
  /** The end date the approver set for granted access (YYYY-MM-DD); the policy's default when absent. */
  accessEndsOn?: string | undefined;
  clientAddress: string;
}): Promise<void> {
  const { ctx, actor, decision, comment, clientAddress } = options;
  const action = decision === 'APPROVE' ? 'request.approve' : 'request.deny';
  await auditingDenials(ctx.db, (deny) =>
    ctx.db.transaction().execute(async (tx) => {
      const request = await findRequestForUpdate(tx, options.requestId);
      if (!request) throw new AppError('notFound', approvalMessages.requestNotFound);
      const all = await itemsOfRequest(tx, request.id);
      const targeted = options.workItemId ? all.filter((i) => i.id === options.workItemId) : all;
      if (targeted.length === 0) throw new AppError('notFound', approvalMessages.requestNotFound);

      const now = ctx.clock.now();
      const decider = await loadDecider(tx, actor, now);
      const asItem = (i: Item) => ({
        organizationId: i.organization_id,
        beneficiaryId: request.beneficiary_id,
        forwarded: i.forwarded_at !== null,
        createdAt: new Date(i.created_at),
      });
      const mine = targeted.filter((i) => requestPolicy.can(decider, 'decide', asItem(i)));
      if (mine.length === 0) {
        deny({
          action,
          actor: { id: actor.id, username: actor.username },
          target: { id: request.beneficiary_id, username: request.beneficiaryUsername ?? request.email },
          organizationId: targeted.length === 1 ? targeted[0]!.organization_id : null,
          clientAddress,
          details: {
            requestId: request.id,
            workItemId: options.workItemId ?? null,
            reason: 'notYourOrganization',
          },
        });
        throw new AppError('forbidden', approvalMessages.notYourOrganization);
      }
      const pending = mine.filter((i) => i.status === 'pending');
      if (pending.length === 0) throw new AppError('conflict', approvalMessages.alreadyDecided);

      const status = decision === 'APPROVE' ? 'approved' : 'denied';
      const inactive = pending.find((i) => !i.orgActive);
      if (decision === 'APPROVE' && inactive) {
        throw new AppError('conflict', approvalMessages.organizationInactive(inactive.orgName));
      }
      // A delegate decides on the delegator's behalf (the same BRM for every item it decides here).
      const onBehalfOf =
        pending.map((i) => requestPolicy.onBehalfOf(decider, asItem(i))).find((n) => n !== null) ?? null;
      for (const item of pending) {
        const won = await decideItem(tx, { id: item.id, status, deciderId: actor.id, comment, at: now });
        // Lost a race with another decision: roll back everything this call did.
        if (!won) throw new AppError('conflict', approvalMessages.alreadyDecided);
        await recordAudit(tx, {
          action,
          outcome: 'success',
          actor: { id: actor.id, username: actor.username },
          target: {
            id: request.beneficiary_id,
            username: request.beneficiaryUsername ?? request.email,
          },
          organizationId: item.organization_id,
          clientAddress,
          details: {
            requestId: request.id,
            workItemId: item.id,
            type: request.type,
            ...(onBehalfOf !== null && { onBehalfOf: requestPolicy.onBehalfOf(decider, asItem(item)) }),
          },
        });
      }
      await settleRequest(tx, request.id);
      const by = onBehalfOf === null ? null : { delegate: personName(actor), delegator: onBehalfOf };
      await carryOut(tx, {
        ctx,
        actor,
        request,
        items: pending,
        decision,
        comment,
        accessEndsOn: options.accessEndsOn,
        clientAddress,
        by,
      });
    }),
  );
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
    accessEndsOn?: string | undefined;
    clientAddress: string;
    /** A delegate's decision: who decided on whose behalf. */
    by: OnBehalf | null;
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
          by: o.by,
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
        requestItemId: i.id,
        endsOn: o.accessEndsOn,
      })),
      clientAddress: o.clientAddress,
      ...(o.by && { approvedBy: o.by }),
    });
    return;
  }
  if (request.type === 'Extend Access') {
    await carryOutExtension(tx, o);
    return;
  }
  await mailRequester(tx, o);
  if (o.decision === 'DENY' || !request.beneficiary_id) return;
  const beneficiary = { id: request.beneficiary_id, username: request.beneficiaryUsername ?? '' };
  const removing = items.filter((i) => i.operation === 'Remove').map((i) => i.organization_id);
  if (removing.length > 0) {
    // The same last-organization rule as Manage Access: the item stays pending, nothing changes.
    const held = await lockedRoleOrganizations(tx, beneficiary.id);
    if (leavesNoRole(held, removing)) throw new AppError('conflict', accessMessages.lastRoleManager);
  }
  const at = ctx.clock.now();
  for (const item of items) {
    const change = {
      actor: { id: o.actor.id, username: o.actor.username },
      account: beneficiary,
      organizationId: item.organization_id,
      requestItemId: item.id,
      clientAddress: o.clientAddress,
      at,
    };
    await (item.operation === 'Add'
      ? grantRole(tx, {
          ...change,
          expiresAt: await chooseGrantEnd(
            tx,
            item.organization_id,
            at,
            ctx.config.PORTAL_TIME_ZONE,
            o.accessEndsOn,
          ),
        })
      : removeRole(tx, change));
  }
}

/**
 * An Extend Access decision (GOVERNANCE.md §3.3): approved, the grant ends on the approver's date
 * (or the date asked for) within policy and the approver becomes its sponsor of record; a grant
 * that ended meanwhile is made again from now (`afterExpiry`, which also enables an account
 * disabled for having no access left). Either way `grant.extend` is audited; the vendor is mailed
 * the decision (X5), naming on whose behalf a delegate decided.
 */
async function carryOutExtension(
  tx: Tx,
  o: {
    ctx: AppContext;
    actor: Account;
    request: Request;
    items: Item[];
    decision: Decision;
    comment: string;
    accessEndsOn?: string | undefined;
    clientAddress: string;
    by: OnBehalf | null;
  },
): Promise<void> {
  const { ctx, request } = o;
  const zone = ctx.config.PORTAL_TIME_ZONE;
  const accountId = request.beneficiary_id;
  if (!accountId) return;
  const account = { id: accountId, username: request.beneficiaryUsername ?? '' };
  const at = ctx.clock.now();
  for (const item of o.items) {
    let until: string | null = null;
    if (o.decision === 'APPROVE') {
      const asked =
        o.accessEndsOn ??
        (item.requested_until ? localDate(new Date(item.requested_until), zone) : undefined);
      const end = await chooseGrantEnd(tx, item.organization_id, at, zone, asked);
      until = localDate(end, zone);
      await lockedRoleOrganizations(tx, accountId);
      const key = { account_id: accountId, organization_id: item.organization_id };
      const grant = await lockedGrant(tx, key);
      if (grant) {
        await setGrantEnd(tx, { ...key, expiresAt: end, sponsorId: o.actor.id });
      } else {
        if ((await findAccountById(tx, accountId))?.status === 'terminated') {
          throw new AppError('conflict', accessExpiryMessages.accessEnded(item.orgName));
        }
        await grantRole(tx, {
          actor: { id: o.actor.id, username: o.actor.username },
          account,
          organizationId: item.organization_id,
          requestItemId: item.id,
          clientAddress: o.clientAddress,
          at,
          expiresAt: end,
        });
      }
      await setGrantedUntil(tx, item.id, end);
      await recordAudit(tx, {
        action: 'grant.extend',
        outcome: 'success',
        actor: { id: o.actor.id, username: o.actor.username },
        target: account,
        organizationId: item.organization_id,
        clientAddress: o.clientAddress,
        details: {
          requestItemId: item.id,
          from: grant ? localDate(new Date(grant.expires_at), zone) : null,
          to: until,
          afterExpiry: !grant,
        },
      });
    }
    if (request.requesterEmail) {
      await enqueueMail(tx, {
        to: request.requesterEmail,
        ...extensionDecidedMail(mailSite(ctx), {
          firstName: request.requesterGivenName ?? '',
          organization: item.orgName,
          until,
          comment: o.comment,
          by: o.by,
        }),
      });
    }
  }
}

/** Tells the person who asked for an access change what was decided, one mail per organization. */
async function mailRequester(
  tx: Tx,
  o: {
    ctx: AppContext;
    request: Request;
    items: Item[];
    decision: Decision;
    comment: string;
    by: OnBehalf | null;
  },
): Promise<void> {
  const { request } = o;
  if (!request.requesterEmail) return;
  for (const item of o.items) {
    await enqueueMail(tx, {
      to: request.requesterEmail,
      ...accessDecidedMail(mailSite(o.ctx), {
        firstName: request.requesterGivenName ?? '',
        type: request.type,
        organization: item.orgName,
        approved: o.decision === 'APPROVE',
        comment: o.comment,
        by: o.by,
      }),
    });
  }
}
