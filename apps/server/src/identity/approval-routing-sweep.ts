import type { RiskTier } from '@pra/contracts';
import type { Db } from '../platform/db';
import type { Tx } from '../platform/db';
import {
  addRouting,
  delegationForUpdate,
  delegationsStarted,
  delegationsToEnd,
  expireItem,
  hasActivePrimary,
  markForwarded,
  markReminded,
  pendingItemForUpdate,
  pendingItemsToRoute,
  pendingPrimaryItemsOf,
  recordNotice,
  settleExpiredRequest,
} from '../store/approval-routing';
import {
  approversOf,
  delegationEndedMail,
  delegationStartedMail,
  earliestMilestoneDays,
  type RoutingPolicy,
  infosecEmails,
  INFOSEC_NAME,
  mailDate,
  milestonesOf,
  requestExpiredApproversMail,
  requestExpiredMail,
  requestForwardedMail,
  requestReminderMail,
  uniqueRecipients,
  type Recipient,
} from './approval-routing';
import { recordAudit } from './audit';
import type { MailSite } from './mail-templates';
import { endDelegation } from '../store/delegations';
import { readPolicyBook, type GovernanceStep, type SweepDeps } from './governance/sweep';
import { enqueueMail } from './outbox';

// The governance sweeper's approval-routing steps (GOVERNANCE.md §2.2): (4) request reminders,
// forwards and expiries; (8) delegations start and end. Each subject's change, audit event and
// mails are one transaction, recorded once in governance_notices (a second sweep finds the
// milestone there and does nothing); after a gap only the latest due milestone is sent and the
// earlier ones are recorded as skipped (the catch-up rule).

const BATCH = 500;
const SYSTEM = { id: null, username: 'system' };
const ITEM = 'request-item';
const DELEGATION = 'delegation';

/** An item's milestones in order: remind-1, remind-2, ... then forward, then expire. */
const rank = (milestone: string) =>
  milestone === 'expire'
    ? 1_000_000
    : milestone === 'forward'
      ? 999_999
      : Number(milestone.split('-')[1] ?? 0);

interface StepLog {
  warn(o: object, message: string): void;
}

/** What the routing steps need: the database and the settings (the app context or a sweep). */
export interface RoutingDeps {
  db: Db;
  config: SweepDeps['config'];
}

const siteOf = (deps: RoutingDeps): MailSite => ({
  hospitalName: deps.config.HOSPITAL_NAME,
  publicUrl: deps.config.publicUrl,
});

/** What one sweep of the routing steps did, by milestone. */
export interface RoutingSweepResult {
  reminded: number;
  forwarded: number;
  expired: number;
  delegationsStarted: number;
  delegationsEnded: number;
  failed: number;
}

const emptyResult = (): RoutingSweepResult => ({
  reminded: 0,
  forwarded: 0,
  expired: 0,
  delegationsStarted: 0,
  delegationsEnded: 0,
  failed: 0,
});

/** Step 4: each pending item's latest due milestone, once. */
export async function routeRequestItems(
  deps: RoutingDeps,
  now: Date,
  policies: Record<RiskTier, RoutingPolicy>,
  log?: StepLog,
): Promise<RoutingSweepResult> {
  const result = emptyResult();
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = await pendingItemsToRoute(deps.db, now, earliestMilestoneDays(policies), BATCH, after);
    for (const row of rows) {
      const createdAt = new Date(row.created_at);
      const due: string[] = milestonesOf(policies[row.risk_tier], createdAt)
        .filter((m) => m.at <= now)
        .map((m) => m.milestone);
      if (new Date(row.expires_at) <= now) due.push('expire');
      else if (!due.includes('forward') && row.forwarded_at === null) {
        // Nobody to decide it: the backups (or InfoSec) at once.
        if (!(await hasActivePrimary(deps.db, row.organization_id))) due.push('forward');
      }
      const latest = due.sort((a, b) => rank(a) - rank(b)).at(-1);
      if (!latest || row.milestones.includes(latest)) continue;
      // A milestone later than one already sent is never due again (nor are those before it).
      if (row.milestones.some((m) => rank(m) > rank(latest))) continue;
      const skipped = due.filter((m) => m !== latest && !row.milestones.includes(m));
      try {
        const done = await deps.db.transaction().execute((tx) =>
          applyMilestone(tx, deps, {
            itemId: row.id,
            milestone: latest,
            skipped,
            now,
            policy: policies[row.risk_tier],
          }),
        );
        if (done) {
          if (latest === 'expire') result.expired++;
          else if (latest === 'forward') result.forwarded++;
          else result.reminded++;
        }
      } catch (error) {
        result.failed++;
        log?.warn({ err: error, itemId: row.id, milestone: latest }, 'approval routing failed; will retry');
      }
    }
    if (rows.length < BATCH) break;
    after = rows.at(-1)!.id;
  }
  return result;
}

const vendorOf = (item: NonNullable<Awaited<ReturnType<typeof pendingItemForUpdate>>>) =>
  item.type === 'New Account'
    ? `${item.first_name} ${item.last_name}`.trim() || item.email
    : `${item.beneficiaryGivenName ?? item.first_name} ${item.beneficiaryFamilyName ?? item.last_name}`.trim() ||
      (item.beneficiaryUsername ?? item.email);

async function mailAll(
  tx: Tx,
  to: Recipient[],
  mail: Parameters<typeof enqueueMail>[1] extends infer M ? Omit<M, 'to'> : never,
) {
  for (const r of to) await enqueueMail(tx, { ...mail, to: r.email });
}

/** One item's milestone: recorded (and the skipped ones), its effect, audit and mails. */
async function applyMilestone(
  tx: Tx,
  deps: RoutingDeps,
  o: { itemId: string; milestone: string; skipped: string[]; now: Date; policy: RoutingPolicy },
): Promise<boolean> {
  const { now } = o;
  const item = await pendingItemForUpdate(tx, o.itemId);
  if (!item) return false;
  if (!(await recordNotice(tx, { kind: ITEM, subjectId: item.id, milestone: o.milestone, at: now })))
    return false;
  for (const m of o.skipped) {
    await recordNotice(tx, { kind: ITEM, subjectId: item.id, milestone: m, at: now, skipped: true });
  }
  const zone = deps.config.PORTAL_TIME_ZONE;
  const site = siteOf(deps);
  const createdAt = new Date(item.created_at);
  const expiresAt = new Date(item.expires_at);
  const vendor = vendorOf(item);
  const audit = (action: string, details: Record<string, string | number>) =>
    recordAudit(tx, {
      action,
      outcome: 'success',
      actor: SYSTEM,
      target: { id: item.beneficiary_id, username: item.beneficiaryUsername ?? item.email },
      organizationId: item.organization_id,
      details: { requestId: item.request_id, workItemId: item.id, type: item.type, ...details },
    });

  if (o.milestone === 'forward') {
    await markForwarded(tx, item.id, now);
    const a = await approversOf(
      tx,
      deps.config,
      { organizationId: item.organization_id, createdAt, forwarded: true },
      now,
    );
    const infosec = a.forwardedTo.length === 0 || a.forwardedTo.every((r) => r.name === INFOSEC_NAME);
    const to = uniqueRecipients(a.forwardedTo.length > 0 ? a.forwardedTo : a.primary);
    await mailAll(
      tx,
      to,
      requestForwardedMail(site, {
        vendor,
        organization: item.orgName,
        type: item.type,
        expires: mailDate(expiresAt, zone),
      }),
    );
    await addRouting(tx, [{ itemId: item.id, at: now, event: 'forwarded', recipients: names(to) }]);
    await audit('request.forward', { to: infosec ? 'infosec' : 'backup' });
    return true;
  }

  const forwarded = item.forwarded_at !== null;
  const a = await approversOf(
    tx,
    deps.config,
    { organizationId: item.organization_id, createdAt, forwarded },
    now,
  );
  const approvers = uniqueRecipients(a.primary, a.forwardedTo, a.delegates);

  if (o.milestone === 'expire') {
    await expireItem(tx, item.id, now);
    await settleExpiredRequest(tx, item.request_id, now);
    const registration = item.type === 'New Account';
    const requester = registration ? item.email : item.requesterEmail;
    if (requester) {
      await enqueueMail(tx, {
        to: requester,
        ...requestExpiredMail(site, {
          firstName: registration ? item.first_name : (item.requesterGivenName ?? ''),
          organization: item.orgName,
          registration,
        }),
      });
    }
    await mailAll(
      tx,
      approvers,
      requestExpiredApproversMail(site, {
        vendor,
        organization: item.orgName,
        type: item.type,
        expires: mailDate(expiresAt, zone),
      }),
    );
    await addRouting(tx, [{ itemId: item.id, at: now, event: 'expired', recipients: names(approvers) }]);
    await audit('request.expire', {});
    return true;
  }

  const forwardAt = milestonesOf(o.policy, createdAt).find((m) => m.milestone === 'forward')!.at;
  const lastReminder = milestonesOf(o.policy, createdAt)
    .filter((m) => m.milestone !== 'forward')
    .at(-1);
  await markReminded(tx, item.id, now);
  await mailAll(
    tx,
    approvers,
    requestReminderMail(site, {
      vendor,
      organization: item.orgName,
      expires: mailDate(expiresAt, zone),
      // The last reminder before the forward says when it will be forwarded.
      forwardOn: o.milestone === lastReminder?.milestone && !forwarded ? mailDate(forwardAt, zone) : null,
    }),
  );
  await addRouting(tx, [{ itemId: item.id, at: now, event: 'reminded', recipients: names(approvers) }]);
  await audit('request.remind', { milestone: o.milestone });
  return true;
}

const names = (to: Recipient[]) => [...new Set(to.map((r) => r.name))];

/** Step 8: delegations that started (announced, pending items moved) or must end. */
export async function sweepDelegations(
  deps: RoutingDeps,
  now: Date,
  result: RoutingSweepResult,
  log?: StepLog,
): Promise<void> {
  for (const { id } of await delegationsStarted(deps.db, now, BATCH)) {
    try {
      if (await deps.db.transaction().execute((tx) => startDelegation(tx, deps, id, now)))
        result.delegationsStarted++;
    } catch (error) {
      result.failed++;
      log?.warn({ err: error, delegationId: id }, 'delegation start failed; will retry');
    }
  }
  for (const row of await delegationsToEnd(deps.db, now, BATCH)) {
    const reason = row.timeUp ? 'ended' : row.delegatorGone ? 'delegatorNotBrm' : 'delegateNotBrm';
    try {
      if (
        await deps.db
          .transaction()
          .execute((tx) => finishDelegation(tx, deps, { id: row.id, now, reason, actor: SYSTEM }))
      ) {
        result.delegationsEnded++;
      }
    } catch (error) {
      result.failed++;
      log?.warn({ err: error, delegationId: row.id }, 'delegation end failed; will retry');
    }
  }
}

type Delegation = NonNullable<Awaited<ReturnType<typeof delegationForUpdate>>>;
const delegatorName = (d: Delegation) =>
  `${d.delegatorGivenName} ${d.delegatorFamilyName}`.trim() || d.delegatorUsername;
const delegateName = (d: Delegation) =>
  d.delegate_id === null ? INFOSEC_NAME : `${d.delegateGivenName ?? ''} ${d.delegateFamilyName ?? ''}`.trim();

async function delegateRecipients(tx: Tx, deps: RoutingDeps, d: Delegation): Promise<Recipient[]> {
  if (d.delegate_id === null)
    return (await infosecEmails(tx, deps.config)).map((email) => ({ email, name: INFOSEC_NAME }));
  return d.delegateEmail ? [{ email: d.delegateEmail, name: delegateName(d) }] : [];
}

/**
 * A delegation's start, once: the delegate and the delegator are mailed and, with "Also move my
 * pending items", the delegator's pending items gain the delegate in their history. Called by the
 * sweeper, and at once by Away and Backup when the period has already begun.
 */
export async function startDelegation(tx: Tx, deps: RoutingDeps, id: string, now: Date): Promise<boolean> {
  const d = await delegationForUpdate(tx, id);
  if (!d || d.ended_at !== null || new Date(d.starts_at) > now || new Date(d.ends_at) <= now) return false;
  if (!(await recordNotice(tx, { kind: DELEGATION, subjectId: d.id, milestone: 'start', at: now })))
    return false;
  const zone = deps.config.PORTAL_TIME_ZONE;
  const mail = delegationStartedMail(siteOf(deps), {
    delegator: delegatorName(d),
    from: mailDate(new Date(d.starts_at), zone),
    until: mailDate(new Date(new Date(d.ends_at).getTime() - 1000), zone),
  });
  const to = uniqueRecipients(await delegateRecipients(tx, deps, d), [
    { email: d.delegatorEmail, name: delegatorName(d) },
  ]);
  await mailAll(tx, to, mail);
  if (d.move_pending) {
    const pending = await pendingPrimaryItemsOf(tx, d.delegator_id);
    await addRouting(
      tx,
      pending.map((i) => ({
        itemId: i.id,
        at: now,
        event: 'delegated' as const,
        recipients: [delegateName(d)],
      })),
    );
    await recordAudit(tx, {
      action: 'delegation.move-pending',
      outcome: 'success',
      actor: SYSTEM,
      target: { id: d.delegator_id, username: d.delegatorUsername },
      details: { delegationId: d.id, count: pending.length },
    });
  }
  return true;
}

/** Ends an open delegation: recorded, audited, and both sides mailed once. */
export async function finishDelegation(
  tx: Tx,
  deps: RoutingDeps,
  o: {
    id: string;
    now: Date;
    reason: string;
    actor: { id: string | null; username: string };
    clientAddress?: string;
  },
): Promise<boolean> {
  const d = await delegationForUpdate(tx, o.id);
  if (!d || !(await endDelegation(tx, d.id, o.now, o.reason))) return false;
  await recordAudit(tx, {
    action: 'delegation.end',
    outcome: 'success',
    actor: o.actor,
    target: { id: d.delegator_id, username: d.delegatorUsername },
    ...(o.clientAddress ? { clientAddress: o.clientAddress } : {}),
    details: { delegationId: d.id, reason: o.reason },
  });
  // A delegation that never started ends without mail to the delegate about a start it never had.
  const started = new Date(d.starts_at) <= o.now;
  if (!(await recordNotice(tx, { kind: DELEGATION, subjectId: d.id, milestone: 'end', at: o.now })))
    return true;
  const why =
    {
      ended: 'its period is over',
      endedNow: 'it was ended',
      delegatorNotBrm: `${delegatorName(d)} is no longer a BRM`,
      delegateNotBrm: `${delegateName(d)} no longer manages any of the same organizations`,
      replaced: 'a new delegation replaced it',
    }[o.reason] ?? o.reason;
  const to = uniqueRecipients(started ? await delegateRecipients(tx, deps, d) : [], [
    { email: d.delegatorEmail, name: delegatorName(d) },
  ]);
  await mailAll(
    tx,
    to,
    delegationEndedMail(siteOf(deps), { delegator: delegatorName(d), delegate: delegateName(d), why }),
  );
  return true;
}

/** The routing steps at the clock's now, outside the sweeper (tests; the sweeper runs the steps below). */
export async function runApprovalRouting(
  deps: RoutingDeps & { clock: { now(): Date } },
  log?: StepLog,
): Promise<RoutingSweepResult> {
  const now = deps.clock.now();
  const result = await routeRequestItems(deps, now, await readPolicyBook(deps.db), log);
  await sweepDelegations(deps, now, result, log);
  return result;
}

/** Step (4) of the governance sweep: request reminders, forwards and expiries. */
export const requestRouting: GovernanceStep = {
  name: 'request-routing',
  async run(sweep) {
    const r = await routeRequestItems(sweep, sweep.at, sweep.policies, sweep.log);
    return { done: r.reminded + r.forwarded + r.expired, failed: r.failed };
  },
};

/** Step (8) of the governance sweep: delegations start and end. */
export const delegationChanges: GovernanceStep = {
  name: 'delegations',
  async run(sweep) {
    const r = emptyResult();
    await sweepDelegations(sweep, sweep.at, r, sweep.log);
    return { done: r.delegationsStarted + r.delegationsEnded, failed: r.failed };
  },
};
