import {
  accessExpiryMessages,
  accessMessages,
  approvalMessages,
  emergencyMessages,
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
import { enableAfterDismissedDeparture, findAccountById } from '../../store/accounts';
import {
  decideReport,
  emergencyOfRequest,
  otherSuspendingReport,
  reportOfRequestForUpdate,
} from '../../store/emergencies';
import { disableAccountsLeftWithoutAccess } from '../../identity/governance/access-expiry';
import { endEmergency } from '../../identity/governance/emergency';
import { readPolicyBook } from '../../identity/governance/sweep';
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

/** A decision taken, as what carries it out sees it. */
interface Decided {
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
}

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
  await auditingDenials(ctx.db, (deny) =>
    ctx.db.transaction().execute(async (tx) => {
      const request = await findRequestForUpdate(tx, options.requestId);
      if (!request) throw new AppError('notFound', approvalMessages.requestNotFound);
      const action = DECISION_ACTIONS[request.type][decision];
      // GOVERNANCE.md §10.1: "Acknowledge" takes a note.
      if (request.type === 'Emergency Access' && decision === 'APPROVE' && comment.trim() === '') {
        throw new AppError('badRequest', emergencyMessages.noteRequired);
      }
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
      if (decision === 'APPROVE' && inactive && !FOLLOW_UPS.has(request.type)) {
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
            ...(FOLLOW_UPS.has(request.type) && comment ? { note: comment } : {}),
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

/**
 * The audit action of a decision by request type: Approve and Reject for requests; Acknowledge and
 * Remove now for an emergency follow-up, Confirm Departure and Dismiss for a reported departure
 * (GOVERNANCE.md §10).
 */
const DECISION_ACTIONS: Record<Request['type'], Record<Decision, string>> = {
  'New Account': { APPROVE: 'request.approve', DENY: 'request.deny' },
  'Add Access': { APPROVE: 'request.approve', DENY: 'request.deny' },
  'Remove Access': { APPROVE: 'request.approve', DENY: 'request.deny' },
  'Extend Access': { APPROVE: 'request.approve', DENY: 'request.deny' },
  'Emergency Access': { APPROVE: 'emergency.acknowledge', DENY: 'emergency.remove' },
  'Departure Reported': { APPROVE: 'departure.confirm', DENY: 'departure.dismiss' },
};
/** The items that follow up on something that already happened (no organization check on approval). */
const FOLLOW_UPS: ReadonlySet<Request['type']> = new Set(['Emergency Access', 'Departure Reported']);

/** What a decision does beyond recording it. */
async function carryOut(tx: Tx, o: Decided): Promise<void> {
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
  if (request.type === 'Emergency Access' || request.type === 'Departure Reported') {
    await carryOutFollowUp(tx, { ...o, type: request.type });
    return;
  }
  await mailRequester(tx, o);
  if (o.decision === 'DENY' || !request.beneficiary_id) return;
  const beneficiary = { id: request.beneficiary_id, username: request.beneficiaryUsername ?? '' };
  const removing = items.filter((i) => i.operation === 'Remove').map((i) => i.organization_id);
  // The account row's lock before any grant changes, as every grant, removal and emergency grant
  // of this person takes it: without it an emergency grant (account lock, then its grant) and this
  // approval (its grant, then the grant's key lock on the account) deadlocked on PostgreSQL.
  const held = await lockedRoleOrganizations(tx, beneficiary.id);
  // The same last-organization rule as Manage Access: the item stays pending, nothing changes.
  if (removing.length > 0 && leavesNoRole(held, removing)) {
    throw new AppError('conflict', accessMessages.lastRoleManager);
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
async function carryOutExtension(tx: Tx, o: Decided): Promise<void> {
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

/**
 * GOVERNANCE.md §10. An emergency follow-up: "Acknowledge" only records the decision (and its
 * note); "Remove now" ends the emergency grant at once (a grant already ended stays so). A reported
 * departure: "Confirm Departure" removes the colleague's grant of the organization (`revoked`) and
 * an account left with no access follows §3.3 (disabled for no access, closed after 30 days);
 * "Dismiss" gives back an account the high tier suspended, unless another open report suspends it.
 */
async function carryOutFollowUp(
  tx: Tx,
  o: Decided & { type: 'Emergency Access' | 'Departure Reported' },
): Promise<void> {
  const { ctx, actor, request } = o;
  const at = ctx.clock.now();
  const env = { config: ctx.config, at, policies: await readPolicyBook(tx) };
  const who = { id: actor.id, username: actor.username };
  if (o.type === 'Emergency Access') {
    if (o.decision === 'APPROVE') return;
    const emergency = await emergencyOfRequest(tx, request.id);
    if (emergency && emergency.ended_at === null) {
      await endEmergency(tx, env, {
        id: emergency.id,
        how: 'removed',
        actor: { ...who, name: personName(actor) },
        clientAddress: o.clientAddress,
      });
    }
    return;
  }
  const report = await reportOfRequestForUpdate(tx, request.id);
  if (!report) return;
  const status = o.decision === 'APPROVE' ? 'confirmed' : 'dismissed';
  if (!(await decideReport(tx, { id: report.id, status, by: actor.id, at, reason: o.comment }))) {
    throw new AppError('conflict', approvalMessages.alreadyDecided);
  }
  const target = { id: report.target_id, username: request.beneficiaryUsername ?? '' };
  if (o.decision === 'APPROVE') {
    const held = await lockedRoleOrganizations(tx, report.target_id);
    if (held.includes(report.organization_id)) {
      await removeRole(tx, {
        actor: who,
        account: target,
        organizationId: report.organization_id,
        requestItemId: o.items[0]?.id ?? null,
        clientAddress: o.clientAddress,
        at,
        reason: 'revoked',
      });
    }
    await disableAccountsLeftWithoutAccess(env, tx, [report.target_id]);
    return;
  }
  if (report.suspended && !(await otherSuspendingReport(tx, report.target_id, report.id))) {
    if (await enableAfterDismissedDeparture(tx, report.target_id, at)) {
      await recordAudit(tx, {
        action: 'account.enable',
        outcome: 'success',
        actor: who,
        target,
        clientAddress: o.clientAddress,
        details: { reason: 'departureDismissed', reportId: report.id },
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
