import { createHash } from 'node:crypto';
import {
  csvLine,
  reviewMessages,
  type BrmReviews,
  type DecideBody,
  type PreviewOrganization,
  type ReviewItem,
  type ReviewPreview,
  type StartCycleBody,
} from '@pra/contracts';
import { AppError } from '../../platform/app-error';
import type { Tx } from '../../platform/db';
import type { Account, ReviewDefaultAction } from '../../platform/db-schema';
import { addDays, endOfLocalDay, localDate, localInstant, daysBetween } from '../../platform/local-time';
import { isAdmin } from '../../store/account-kinds';
import { activeBrmEmails } from '../../store/grants';
import { brmsOf } from '../../store/approval-routing';
import { insertMails } from '../../store/outbox';
import { settleCancelledRequest } from '../../store/requests';
import * as store from '../../store/reviews';
import { recordAudit, recordAudits, type AuditEvent } from '../audit';
import { infosecEmails } from '../approval-routing';
import { disableAccountsLeftWithoutAccess, outboxRow, siteOf, SYSTEM_ACTOR } from './access-expiry';
import {
  accessRemovedInReviewMail,
  accessWillEndMail,
  confirmAccessMail,
  reviewCompletedMail,
  reviewEscalatedMail,
  reviewOpenedMail,
  reviewReminderMail,
} from './review-mails';
import { eachBatch, readPolicyBook, type GovernanceStep, type Sweep, type SweepDeps } from './sweep';

// Access reviews (GOVERNANCE.md §4): the preview of the default action and the close share one
// function (outcomeOf), so what the preview says the close would remove and disable is what it
// removes and disables.

const DAY_MS = 86_400_000;
type Actor = { id: string | null; username: string };

/** A sweep-like view for calls made in a request or the CLI (no lease: the row locks guard). */
export async function reviewSweep(deps: SweepDeps): Promise<Sweep> {
  return {
    ...deps,
    at: deps.clock.now(),
    policies: await readPolicyBook(deps.db),
    keepLease: async () => undefined,
  };
}

/** The recommendation shown to reviewers and applied by the "Follow recommendation" default. */
export function recommendationOf(
  row: Pick<store.OutcomeRow, 'vendor_answer' | 'last_sign_in_at' | 'account_created_at' | 'account_status'>,
  inactivityDays: number,
  at: Date,
): { remove: boolean; text: string } {
  if (row.vendor_answer === 'no') return { remove: true, text: 'Remove: vendor no longer needs it' };
  const since = new Date(row.last_sign_in_at ?? row.account_created_at);
  const idle = Math.floor((at.getTime() - since.getTime()) / DAY_MS);
  if (idle >= inactivityDays || row.account_status === 'disabled')
    return { remove: true, text: `Remove: no sign-in for ${idle} days` };
  return { remove: false, text: 'Keep' };
}

export interface Outcome {
  action: 'kept' | 'shortened' | 'removed' | 'withdrawn';
  byDefault: boolean;
  recommendation: string;
}

/** What closing does to one item: its decision, or the default when nobody decided. */
export function outcomeOf(
  row: store.OutcomeRow,
  defaultAction: ReviewDefaultAction,
  inactivityDays: number,
  at: Date,
): Outcome {
  const rec = recommendationOf(row, inactivityDays, at);
  if (!row.grant_current || row.account_status === 'terminated')
    return { action: 'withdrawn', byDefault: false, recommendation: rec.text };
  if (row.status === 'removed') return { action: 'removed', byDefault: false, recommendation: rec.text };
  if (row.status === 'kept') return { action: 'kept', byDefault: false, recommendation: rec.text };
  if (row.status === 'keptUntil') {
    const shorter =
      row.keep_until && row.grant_expires_at && new Date(row.keep_until) < new Date(row.grant_expires_at);
    return { action: shorter ? 'shortened' : 'kept', byDefault: false, recommendation: rec.text };
  }
  const remove = defaultAction === 'remove' || (defaultAction === 'recommendation' && rec.remove);
  return { action: remove ? 'removed' : 'kept', byDefault: true, recommendation: rec.text };
}

/**
 * The preview: per organization, what closing now would do. An account is disabled when every one
 * of its current grants is removed by the campaigns previewed together (its last access).
 */
export function previewOf(
  rows: readonly store.OutcomeRow[],
  campaigns: readonly {
    key: string;
    organizationId: string;
    organization: string;
    defaultAction: ReviewDefaultAction;
    inactivityDays: number;
  }[],
  at: Date,
): ReviewPreview {
  const byKey = new Map(campaigns.map((c) => [c.key, c]));
  const outcomes = rows.map((row) => {
    const c = byKey.get(row.campaign_id)!;
    return { row, outcome: outcomeOf(row, c.defaultAction, c.inactivityDays, at) };
  });
  const removedPerAccount = new Map<string, number>();
  for (const { row, outcome } of outcomes)
    if (outcome.action === 'removed')
      removedPerAccount.set(row.account_id, (removedPerAccount.get(row.account_id) ?? 0) + 1);
  const disables = (row: store.OutcomeRow) =>
    ['active', 'pendingActivation'].includes(row.account_status) &&
    removedPerAccount.get(row.account_id) === row.current_grants;
  const organizations: PreviewOrganization[] = campaigns.map((c) => {
    const mine = outcomes.filter((o) => o.row.campaign_id === c.key);
    const removals = mine.filter((o) => o.outcome.action === 'removed');
    return {
      organizationId: c.organizationId,
      organization: c.organization,
      items: mine.length,
      decided: mine.filter((o) => o.row.status !== 'pending').length,
      wouldBeRemoved: removals.filter((o) => o.outcome.byDefault).length,
      wouldBeDisabled: new Set(removals.filter((o) => disables(o.row)).map((o) => o.row.account_id)).size,
      wouldBeKept: mine.filter((o) => o.outcome.action === 'kept' || o.outcome.action === 'shortened').length,
      removals: removals.map((o) => ({
        username: o.row.username,
        name: `${o.row.given_name} ${o.row.family_name}`,
        email: o.row.email,
        byDefault: o.outcome.byDefault,
        disablesAccount: disables(o.row),
      })),
    };
  });
  return { organizations };
}

const settingsOf = (sweep: Sweep, c: { risk_tier: 'standard' | 'high' }) => sweep.policies[c.risk_tier];

/** The preview of a cycle's unfinished campaigns (as if they closed now); audited. */
export async function previewCycle(sweep: Sweep, cycleId: string, actor: Actor): Promise<ReviewPreview> {
  const campaigns = (await store.campaignsOfCycle(sweep.db, cycleId)).filter((c) =>
    ['scheduled', 'open', 'closing'].includes(c.status),
  );
  const all = await store.campaignsOfCycle(sweep.db, cycleId);
  if (all.length === 0) throw new AppError('notFound', reviewMessages.notFound);
  const open = campaigns.filter((c) => c.status !== 'scheduled');
  const scheduled = campaigns.filter((c) => c.status === 'scheduled');
  const rows = [
    ...(await store.outcomeRowsOfCampaigns(
      sweep.db,
      open.map((c) => c.id),
    )),
    ...(
      await store.outcomeRowsOfGrants(
        sweep.db,
        scheduled.map((c) => c.organization_id),
      )
    ).map((r) => ({
      ...r,
      campaign_id: scheduled.find((c) => c.organization_id === r.organization_id)!.id,
    })),
  ];
  const preview = previewOf(
    rows,
    campaigns.map((c) => ({
      key: c.id,
      organizationId: c.organization_id,
      organization: c.organization,
      defaultAction: c.default_action,
      inactivityDays: settingsOf(sweep, c).inactivityRecommendationDays,
    })),
    sweep.at,
  );
  await recordAudit(sweep.db, {
    action: 'review.preview',
    outcome: 'success',
    actor,
    details: { cycleId, ...previewCounts(preview) },
  });
  return preview;
}

function previewCounts(p: ReviewPreview) {
  const sum = (k: 'items' | 'wouldBeRemoved' | 'wouldBeDisabled' | 'wouldBeKept') =>
    p.organizations.reduce((n, o) => n + o[k], 0);
  return {
    items: sum('items'),
    wouldBeRemoved: sum('wouldBeRemoved'),
    wouldBeDisabled: sum('wouldBeDisabled'),
    wouldBeKept: sum('wouldBeKept'),
  };
}

const chosenOrganizations = store.activeOrganizations;

/** POST /api/admin/reviews (and `admin reviews start|preview`): the preview, and unless previewOnly, the cycle. */
export async function startCycle(
  sweep: Sweep,
  actor: Actor,
  body: StartCycleBody,
): Promise<{ cycleId: string | null; preview: ReviewPreview }> {
  const zone = sweep.config.PORTAL_TIME_ZONE;
  const organizations = await chosenOrganizations(sweep.db, body.organizationIds);
  if (
    organizations.length === 0 ||
    (body.organizationIds && organizations.length !== new Set(body.organizationIds).size)
  )
    throw new AppError('badRequest', reviewMessages.noOrganizations);
  const rows = await store.outcomeRowsOfGrants(
    sweep.db,
    organizations.map((o) => o.id),
  );
  const preview = previewOf(
    rows,
    organizations.map((o) => ({
      key: o.id,
      organizationId: o.id,
      organization: o.name,
      defaultAction: body.defaultAction,
      inactivityDays: sweep.policies[o.risk_tier].inactivityRecommendationDays,
    })),
    sweep.at,
  );
  if (body.previewOnly) {
    await recordAudit(sweep.db, {
      action: 'review.preview',
      outcome: 'success',
      actor,
      details: previewCounts(preview),
    });
    return { cycleId: null, preview };
  }
  if (rows.length === 0) throw new AppError('badRequest', reviewMessages.noGrants);
  const today = localDate(sweep.at, zone);
  const opensOn = body.opensOn && body.opensOn > today ? body.opensOn : today;
  const opensAt =
    opensOn === today ? sweep.at : localInstant(opensOn, { hour: 0, minute: 0, second: 0 }, zone);
  const window =
    body.dueInDays ?? Math.min(...organizations.map((o) => sweep.policies[o.risk_tier].reviewWindowDays));
  const dueAt = endOfLocalDay(addDays(opensOn, window), zone);
  const cycleId = await sweep.db.transaction().execute(async (tx) => {
    const busy = await store.organizationsUnderReview(
      tx,
      organizations.map((o) => o.id),
    );
    if (busy.length > 0) throw new AppError('conflict', reviewMessages.alreadyOpen(busy[0]!.name));
    const id = await store.insertCycle(tx, {
      name: body.name,
      defaultAction: body.defaultAction,
      vendorConfirmation: body.vendorConfirmation,
      opensAt,
      dueAt,
      createdBy: actor.id,
      at: sweep.at,
    });
    await store.insertCampaigns(
      tx,
      id,
      organizations.map((o) => o.id),
    );
    await recordAudit(tx, {
      action: 'review.cycle-start',
      outcome: 'success',
      actor,
      details: {
        cycleId: id,
        organizations: organizations
          .map((o) => o.name)
          .join('; ')
          .slice(0, 2000),
        due: dueAt.toISOString(),
        defaultAction: body.defaultAction,
        vendorConfirmation: body.vendorConfirmation,
      },
    });
    return id;
  });
  // A cycle opening today opens now (the sweep opens later ones at their date).
  await openCampaigns.run(sweep);
  return { cycleId, preview };
}

/** Sweep step (5a): campaigns whose open date has come snapshot their organization's grants. */
export const openCampaigns: GovernanceStep = {
  name: 'review-open',
  run: async (sweep) => {
    let done = 0;
    let failed = 0;
    for (const c of await store.campaignsToOpen(sweep.db, sweep.at)) {
      try {
        if (await sweep.db.transaction().execute((tx) => openCampaign(sweep, tx, c.id))) done += 1;
      } catch (error) {
        failed += 1;
        sweep.log.error({ err: error, step: 'review-open' }, 'governance sweep: a campaign failed to open');
      }
    }
    return { done, failed };
  },
};

async function openCampaign(sweep: Sweep, tx: Tx, campaignId: string): Promise<boolean> {
  const c = await store.lockCampaign(tx, campaignId, 'update');
  if (!c || c.status !== 'scheduled') return false;
  const items = await store.snapshotItems(tx, c.id, c.organization_id);
  const preview = previewOf(
    await store.outcomeRowsOfCampaigns(tx, [c.id]),
    [
      {
        key: c.id,
        organizationId: c.organization_id,
        organization: c.organization,
        defaultAction: c.default_action,
        inactivityDays: settingsOf(sweep, c).inactivityRecommendationDays,
      },
    ],
    sweep.at,
  );
  await store.setCampaign(tx, c.id, ['scheduled'], {
    status: 'open',
    opened_at: sweep.at,
    preview_at_start: JSON.stringify(stripRemovals(preview)),
  });
  await recordAudit(tx, {
    action: 'review.open',
    outcome: 'success',
    actor: SYSTEM_ACTOR,
    organizationId: c.organization_id,
    details: { campaignId: c.id, items },
  });
  const site = siteOf(sweep);
  const dueOn = localDate(new Date(c.due_at), sweep.config.PORTAL_TIME_ZONE);
  const brms = await activeBrmEmails(tx, c.organization_id);
  const reviewers = brms.length > 0 ? brms : await infosecEmails(tx, sweep.config);
  await insertMails(
    tx,
    reviewers.map((to) =>
      outboxRow(to, reviewOpenedMail(site, { organization: c.organization, dueOn, items })),
    ),
  );
  if (c.vendor_confirmation) {
    const vendors = await store.vendorsOfCampaign(tx, c.id);
    await insertMails(
      tx,
      vendors.map((v) =>
        outboxRow(
          v.email,
          confirmAccessMail(site, { firstName: v.given_name, organization: c.organization }),
        ),
      ),
    );
  }
  return true;
}

const stripRemovals = (p: ReviewPreview) => ({
  organizations: p.organizations.map(({ removals: _removals, ...counts }) => counts),
});

/** Sweep step (5b): reminders (days 7, 13) and escalation (day 10) of open campaigns with undecided items. */
export const remindAndEscalate: GovernanceStep = {
  name: 'review-remind-escalate',
  run: async (sweep) => {
    let done = 0;
    let failed = 0;
    const zone = sweep.config.PORTAL_TIME_ZONE;
    for (const c of await store.campaignsIn(sweep.db, ['open'])) {
      if (!c.opened_at || new Date(c.due_at) <= sweep.at) continue;
      const day = daysBetween(localDate(new Date(c.opened_at), zone), localDate(sweep.at, zone));
      const settings = settingsOf(sweep, c);
      try {
        const reminderDay = Math.max(0, ...settings.reviewerReminderDays.filter((d) => d <= day));
        if (reminderDay > c.reminded_day) {
          await sweep.db.transaction().execute((tx) => remind(sweep, tx, c.id, reminderDay, SYSTEM_ACTOR));
          done += 1;
        }
        if (day >= settings.reviewEscalationDay && !c.escalated_at) {
          if (await sweep.db.transaction().execute((tx) => escalate(sweep, tx, c.id))) done += 1;
        }
      } catch (error) {
        failed += 1;
        sweep.log.error(
          { err: error, step: 'review-remind-escalate' },
          'governance sweep: a campaign failed',
        );
      }
    }
    return { done, failed };
  },
};

/** R2 to the BRMs while items are undecided, and R4 again to vendors who have not answered. */
async function remind(
  sweep: Sweep,
  tx: Tx,
  campaignId: string,
  day: number | null,
  actor: Actor,
): Promise<number> {
  const c = await store.lockCampaign(tx, campaignId, 'update');
  if (!c || c.status !== 'open') return 0;
  if (day !== null) await store.setCampaign(tx, c.id, ['open'], { reminded_day: day });
  const undecided = await store.countPending(tx, c.id);
  if (undecided === 0) return 0;
  const site = siteOf(sweep);
  const dueOn = localDate(new Date(c.due_at), sweep.config.PORTAL_TIME_ZONE);
  const brms = await activeBrmEmails(tx, c.organization_id);
  const reviewers = brms.length > 0 ? brms : await infosecEmails(tx, sweep.config);
  await insertMails(
    tx,
    reviewers.map((to) =>
      outboxRow(to, reviewReminderMail(site, { organization: c.organization, dueOn, undecided })),
    ),
  );
  let vendors: { id: string; email: string; given_name: string }[] = [];
  if (c.vendor_confirmation) {
    vendors = await store.vendorsOfPending(tx, c.id, true);
    await insertMails(
      tx,
      vendors.map((v) =>
        outboxRow(
          v.email,
          confirmAccessMail(site, { firstName: v.given_name, organization: c.organization }),
        ),
      ),
    );
    await store.markVendorsReminded(
      tx,
      vendors.map((v) => v.id),
      sweep.at,
    );
  }
  await recordAudit(tx, {
    action: 'review.remind',
    outcome: 'success',
    actor,
    organizationId: c.organization_id,
    details: { campaignId: c.id, undecided, reviewers: reviewers.length, vendors: vendors.length },
  });
  return reviewers.length;
}

/** Day 10 with undecided items: InfoSec and the backup BRMs become reviewers (R3); vendors warned (R5). */
async function escalate(sweep: Sweep, tx: Tx, campaignId: string): Promise<boolean> {
  const c = await store.lockCampaign(tx, campaignId, 'update');
  if (!c || c.status !== 'open' || c.escalated_at) return false;
  const undecided = await store.countPending(tx, c.id);
  if (undecided === 0) return false;
  const preview = previewOf(
    await store.outcomeRowsOfCampaigns(tx, [c.id]),
    [
      {
        key: c.id,
        organizationId: c.organization_id,
        organization: c.organization,
        defaultAction: c.default_action,
        inactivityDays: settingsOf(sweep, c).inactivityRecommendationDays,
      },
    ],
    sweep.at,
  );
  await store.setCampaign(tx, c.id, ['open'], {
    escalated_at: sweep.at,
    preview_at_escalation: JSON.stringify(stripRemovals(preview)),
  });
  const site = siteOf(sweep);
  const dueOn = localDate(new Date(c.due_at), sweep.config.PORTAL_TIME_ZONE);
  const counts = preview.organizations[0]!;
  const to = new Set([
    ...(await infosecEmails(tx, sweep.config)),
    ...(await brmsOf(tx, c.organization_id, 'backup')).map((b) => b.email),
    ...(await activeBrmEmails(tx, c.organization_id)),
  ]);
  await insertMails(
    tx,
    [...to].map((r) =>
      outboxRow(
        r,
        reviewEscalatedMail(site, {
          organization: c.organization,
          dueOn,
          undecided,
          wouldBeRemoved: counts.wouldBeRemoved,
          wouldBeDisabled: counts.wouldBeDisabled,
        }),
      ),
    ),
  );
  let warned = 0;
  if (c.default_action === 'remove') {
    const vendors = await store.vendorsOfPending(tx, c.id, false);
    warned = vendors.length;
    await insertMails(
      tx,
      vendors.map((v) =>
        outboxRow(
          v.email,
          accessWillEndMail(site, { firstName: v.given_name, organization: c.organization, dueOn }),
        ),
      ),
    );
  }
  await recordAudit(tx, {
    action: 'review.escalate',
    outcome: 'success',
    actor: SYSTEM_ACTOR,
    organizationId: c.organization_id,
    details: {
      campaignId: c.id,
      undecided,
      recipients: to.size,
      vendorsWarned: warned,
      ...previewCounts(preview),
    },
  });
  return true;
}

/** Sweep step (5c): campaigns past their due date close; closing campaigns apply their items. */
export const closeCampaigns: GovernanceStep = {
  name: 'review-close',
  run: async (sweep) => {
    for (const c of await store.campaignsDue(sweep.db, sweep.at)) {
      await sweep.db.transaction().execute((tx) => beginClose(tx, c.id, sweep.at, SYSTEM_ACTOR));
    }
    let done = 0;
    let failed = 0;
    for (const c of await store.campaignsIn(sweep.db, ['closing'])) {
      const outcome = await applyCampaign(sweep, c.id);
      done += outcome.done;
      failed += outcome.failed;
    }
    return { done, failed };
  },
};

/** Marks the campaign closing (the exclusive lock waits for decisions in flight). */
async function beginClose(tx: Tx, campaignId: string, at: Date, actor: Actor): Promise<boolean> {
  const c = await store.lockCampaign(tx, campaignId, 'update');
  if (!c || c.status !== 'open') return false;
  await store.setCampaign(tx, c.id, ['open'], { status: 'closing', closing_at: at });
  await recordAudit(tx, {
    action: 'review.close',
    outcome: 'success',
    actor,
    organizationId: c.organization_id,
    details: { campaignId: c.id, phase: 'closing' },
  });
  return true;
}

/** Applies a closing campaign's items (batches of 500, each in one transaction), then closes it. */
async function applyCampaign(sweep: Sweep, campaignId: string) {
  const c = await store.campaignById(sweep.db, campaignId);
  if (!c || c.status !== 'closing') return { done: 0, failed: 0 };
  const outcome = await eachBatch<{ id: string }>(
    sweep,
    'review-close',
    (after, limit) => store.itemsToApply(sweep.db, c.id, after?.id ?? null, limit),
    (tx, rows) =>
      applyItems(
        sweep,
        tx,
        c,
        rows.map((r) => r.id),
      ),
  );
  if ((await store.countUnapplied(sweep.db, c.id)) === 0) {
    await sweep.db.transaction().execute(async (tx) => {
      const locked = await store.lockCampaign(tx, c.id, 'update');
      if (!locked || locked.status !== 'closing') return;
      await store.setCampaign(tx, c.id, ['closing'], { status: 'closed', closed_at: sweep.at });
      const counts = await store.appliedCounts(tx, c.id);
      const n = (action: string, byDefault?: boolean) =>
        counts
          .filter(
            (r) => r.applied_action === action && (byDefault === undefined || r.by_default === byDefault),
          )
          .reduce((s, r) => s + Number(r.n), 0);
      const totals = {
        kept: n('kept') + n('shortened'),
        removed: n('removed', false),
        defaulted: n('removed', true),
      };
      const to = new Set([
        ...(await activeBrmEmails(tx, c.organization_id)),
        ...(await infosecEmails(tx, sweep.config)),
      ]);
      await insertMails(
        tx,
        [...to].map((r) =>
          outboxRow(r, reviewCompletedMail(siteOf(sweep), { organization: c.organization, ...totals })),
        ),
      );
      await recordAudit(tx, {
        action: 'review.close',
        outcome: 'success',
        actor: SYSTEM_ACTOR,
        organizationId: c.organization_id,
        details: { campaignId: c.id, phase: 'closed', ...totals, withdrawn: n('withdrawn') },
      });
    });
  }
  return outcome;
}

/** One batch of the close: each item's decision or default, set-based, in the caller's transaction. */
async function applyItems(sweep: Sweep, tx: Tx, c: store.Campaign, ids: readonly string[]): Promise<number> {
  const rows = await store.lockOutcomeRows(tx, ids);
  if (rows.length === 0) return 0;
  const inactivity = settingsOf(sweep, c).inactivityRecommendationDays;
  const applied = rows.map((row) => ({ row, ...outcomeOf(row, c.default_action, inactivity, sweep.at) }));
  const removed = applied.filter((a) => a.action === 'removed');
  const kept = applied.filter((a) => a.action === 'kept' || a.action === 'shortened');
  await store.endReviewedGrants(
    tx,
    removed.map((a) => ({
      account_id: a.row.account_id,
      organization_id: a.row.organization_id,
      reason: a.byDefault ? ('defaultRemoved' as const) : ('revoked' as const),
      by: a.byDefault ? null : a.row.decided_by,
    })),
    sweep.at,
  );
  await store.confirmGrants(
    tx,
    kept.map((a) => ({
      account_id: a.row.account_id,
      organization_id: a.row.organization_id,
      until: a.action === 'shortened' ? a.row.keep_until : null,
      by: a.byDefault ? null : a.row.decided_by,
    })),
    sweep.at,
  );
  for (const requestId of await store.cancelExtensionsOf(
    tx,
    removed.map((a) => a.row),
    sweep.at,
  ))
    await settleCancelledRequest(tx, requestId);
  await store.markApplied(
    tx,
    applied.map((a) => ({
      id: a.row.id,
      action: a.action,
      byDefault: a.byDefault,
      recommendation: a.recommendation,
    })),
    sweep.at,
  );
  await recordAudits(
    tx,
    applied.map((a): AuditEvent => ({
      action: 'review.apply',
      outcome: 'success',
      actor: SYSTEM_ACTOR,
      target: { id: a.row.account_id, username: a.row.username },
      organizationId: a.row.organization_id,
      details: { campaignId: c.id, itemId: a.row.id, action: a.action, byDefault: a.byDefault },
    })),
  );
  const site = siteOf(sweep);
  await insertMails(
    tx,
    removed.map((a) =>
      outboxRow(
        a.row.email,
        accessRemovedInReviewMail(site, {
          firstName: a.row.given_name,
          organization: c.organization,
          reason: a.byDefault ? null : a.row.reason,
        }),
      ),
    ),
  );
  await disableAccountsLeftWithoutAccess(
    sweep,
    tx,
    removed.map((a) => a.row.account_id),
  );
  return rows.length;
}

/** POST /api/admin/reviews/:campaignId/remind|close|cancel */
export async function campaignAction(
  sweep: Sweep,
  actor: Actor,
  campaignId: string,
  action: 'remind' | 'close' | 'cancel',
  reason: string | undefined,
): Promise<void> {
  const c = await store.campaignById(sweep.db, campaignId);
  if (!c) throw new AppError('notFound', reviewMessages.notFound);
  if (action === 'remind') {
    if (c.status !== 'open') throw new AppError('conflict', reviewMessages.notRemindable);
    await sweep.db.transaction().execute((tx) => remind(sweep, tx, c.id, null, actor));
    return;
  }
  if (action === 'close') {
    const began = await sweep.db.transaction().execute((tx) => beginClose(tx, c.id, sweep.at, actor));
    if (!began && c.status !== 'closing') throw new AppError('conflict', reviewMessages.notClosable);
    await applyCampaign(sweep, c.id);
    return;
  }
  if (!reason) throw new AppError('badRequest', reviewMessages.cancelReasonRequired);
  await sweep.db.transaction().execute(async (tx) => {
    const locked = await store.lockCampaign(tx, c.id, 'update');
    if (!locked || !['scheduled', 'open'].includes(locked.status))
      throw new AppError('conflict', reviewMessages.notCancellable);
    await store.setCampaign(tx, c.id, ['scheduled', 'open'], {
      status: 'cancelled',
      cancel_reason: reason,
      closed_at: sweep.at,
    });
    await store.withdrawItems(tx, c.id, sweep.at);
    await recordAudit(tx, {
      action: 'review.cancel',
      outcome: 'success',
      actor,
      organizationId: c.organization_id,
      details: { campaignId: c.id, reason },
    });
  });
}

/** POST /api/brm/access-reviews/decide: each item in its own transaction (partial results). */
export async function decide(
  sweep: Sweep,
  account: Account,
  body: DecideBody,
  clientAddress: string,
): Promise<{ saved: string[]; failed: { itemId: string; error: string }[] }> {
  const zone = sweep.config.PORTAL_TIME_ZONE;
  const reason = body.reason?.trim() || null;
  if (body.decision === 'remove' && !reason) throw new AppError('badRequest', reviewMessages.reasonRequired);
  if (body.decision === 'keepUntil' && !body.keepUntil)
    throw new AppError('badRequest', reviewMessages.keepUntilRequired);
  const keepUntil = body.decision === 'keepUntil' ? endOfLocalDay(body.keepUntil!, zone) : null;
  if (keepUntil && keepUntil <= sweep.at) throw new AppError('badRequest', reviewMessages.keepUntilPast);
  const actor = { id: account.id, username: account.username };
  const saved: string[] = [];
  const failed: { itemId: string; error: string }[] = [];
  let closedSeen = false;
  for (const itemId of [...new Set(body.itemIds)]) {
    let deniedIn: string | null = null;
    try {
      await sweep.db.transaction().execute(async (tx) => {
        const campaignId = await store.campaignOfItem(tx, itemId);
        if (!campaignId) throw new AppError('notFound', reviewMessages.notFound);
        const c = await store.lockCampaign(tx, campaignId, 'share');
        if (!c || c.status !== 'open') throw new AppError('conflict', reviewMessages.closed);
        if (!(await store.mayDecide(tx, c.id, account.id, isAdmin(account), sweep.at))) {
          deniedIn = c.organization_id;
          throw new AppError('forbidden', reviewMessages.notReviewer);
        }
        const [item] = await store.lockItems(tx, [itemId]);
        if (!item || item.status === 'applied' || item.status === 'withdrawn')
          throw new AppError('conflict', reviewMessages.closed);
        const grant = await store.currentGrantEnd(tx, item);
        if (keepUntil && grant && keepUntil > new Date(grant.expires_at))
          throw new AppError('badRequest', reviewMessages.keepUntilLater);
        const status =
          body.decision === 'keep' ? 'kept' : body.decision === 'keepUntil' ? 'keptUntil' : 'removed';
        await store.setDecision(tx, item.id, { status, keepUntil, reason, by: account.id, at: sweep.at });
        await recordAudit(tx, {
          action: item.status === 'pending' ? 'review.decide' : 'review.decision-change',
          outcome: 'success',
          actor,
          target: { id: item.account_id, username: item.username },
          organizationId: item.organization_id,
          clientAddress,
          details: {
            campaignId: c.id,
            itemId: item.id,
            decision: body.decision,
            until: keepUntil ? keepUntil.toISOString() : null,
            reason,
            ...(item.status === 'pending' ? {} : { previous: item.status }),
          },
        });
      });
      saved.push(itemId);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // A refusal outside one's organizations is audited `denied` (after its transaction ended).
      if (deniedIn)
        await recordAudit(sweep.db, {
          action: 'review.decide',
          outcome: 'denied',
          actor,
          organizationId: deniedIn,
          clientAddress,
          details: { itemId },
        });
      if (error.message === reviewMessages.closed) closedSeen = true;
      // A single item refused answers with the refusal itself (403, 404, 409).
      if (body.itemIds.length === 1) throw error;
      failed.push({ itemId, error: error.message });
    }
  }
  if (saved.length === 0 && closedSeen) throw new AppError('conflict', reviewMessages.closed);
  return { saved, failed };
}

/** GET /api/brm/access-reviews */
export async function brmReviews(
  sweep: Sweep,
  account: Account,
  q: {
    countOnly?: 'true' | 'false' | undefined;
    campaignId?: string | undefined;
    filter?: string | undefined;
    page?: number | undefined;
    pageSize?: number | undefined;
  },
): Promise<BrmReviews> {
  const admin = isAdmin(account);
  const undecided = await store.countUndecided(sweep.db, account.id, admin, sweep.at);
  if (q.countOnly === 'true') return { undecided, campaigns: [], items: [], totalItems: 0 };
  const zone = sweep.config.PORTAL_TIME_ZONE;
  const campaigns = await store.decidableCampaigns(sweep.db, account.id, admin, sweep.at);
  const chosen = q.campaignId ? campaigns.find((c) => c.id === q.campaignId) : campaigns[0];
  if (q.campaignId && !chosen) throw new AppError('forbidden', reviewMessages.notReviewer);
  const pageSize = q.pageSize ?? 10;
  const rows = chosen
    ? await store.pageItems(sweep.db, chosen.id, {
        filter: q.filter?.trim() ?? '',
        offset: ((q.page ?? 1) - 1) * pageSize,
        limit: pageSize,
      })
    : [];
  const inactivity = chosen ? settingsOf(sweep, chosen).inactivityRecommendationDays : 90;
  const items: ReviewItem[] = rows.map((r) => ({
    id: r.id,
    accountId: r.account_id,
    name: `${r.given_name} ${r.family_name}`,
    username: r.username,
    email: r.email,
    accountStatus: r.account_status,
    accessSince: localDate(new Date(r.granted_at), zone),
    accessEnds: localDate(new Date(r.grant_expires_at ?? r.expires_at), zone),
    lastSignIn: r.last_sign_in_at ? localDate(new Date(r.last_sign_in_at), zone) : null,
    signInMethod: r.has_key ? 'Security key' : r.has_app ? 'Authenticator app' : 'None',
    vendorSays:
      r.vendor_answer === 'yes'
        ? 'Still needed'
        : r.vendor_answer === 'no'
          ? 'No longer needed'
          : 'No answer',
    vendorComment: r.vendor_comment,
    recommendation: recommendationOf(r, inactivity, sweep.at).text,
    decision:
      r.status === 'kept'
        ? 'keep'
        : r.status === 'keptUntil'
          ? 'keepUntil'
          : r.status === 'removed'
            ? 'remove'
            : null,
    keepUntil: r.keep_until ? localDate(new Date(r.keep_until), zone) : null,
    reason: r.reason,
    otherAccess: r.other_access,
  }));
  return {
    undecided,
    campaigns: campaigns
      .filter((c) => c.may_decide)
      .map((c) => ({
        id: c.id,
        organizationId: c.organization_id,
        organization: c.organization,
        dueOn: localDate(new Date(c.due_at), zone),
        defaultAction: c.default_action,
        decided: Number(c.decided),
        total: Number(c.total),
        escalated: c.escalated_at !== null,
      })),
    items,
    totalItems: rows[0]?.total ?? 0,
  };
}

/** GET /api/vendor/access-confirmation */
export async function confirmationOf(sweep: Sweep, account: Account) {
  const zone = sweep.config.PORTAL_TIME_ZONE;
  const rows = await store.confirmationItems(sweep.db, account.id);
  return {
    items: rows.map((r) => ({
      itemId: r.id,
      organization: r.organization,
      dueOn: localDate(new Date(r.due_at), zone),
      answer: r.vendor_answer,
      comment: r.vendor_comment,
    })),
  };
}

/** POST /api/vendor/access-confirmation */
export async function answerConfirmation(
  sweep: Sweep,
  account: Account,
  body: { itemId: string; stillNeeded: boolean; comment?: string | undefined },
  clientAddress: string,
): Promise<void> {
  await sweep.db.transaction().execute(async (tx) => {
    const mine = (await store.confirmationItems(tx, account.id)).find((r) => r.id === body.itemId);
    if (!mine) throw new AppError('notFound', reviewMessages.noConfirmation);
    const c = await store.lockCampaign(tx, mine.campaign_id, 'share');
    if (!c || c.status !== 'open') throw new AppError('conflict', reviewMessages.closed);
    const answer = body.stillNeeded ? 'yes' : 'no';
    await store.setVendorAnswer(tx, mine.id, { answer, comment: body.comment?.trim() || null, at: sweep.at });
    await recordAudit(tx, {
      action: 'review.attest',
      outcome: 'success',
      actor: { id: account.id, username: account.username },
      target: { id: account.id, username: account.username },
      organizationId: c.organization_id,
      clientAddress,
      details: { campaignId: c.id, itemId: mine.id, answer },
    });
  });
}

/** GET /api/admin/reviews */
export async function adminCampaigns(sweep: Sweep) {
  const zone = sweep.config.PORTAL_TIME_ZONE;
  const rows = await store.allCampaigns(sweep.db);
  const progress = await store.campaignProgress(sweep.db);
  const byId = new Map(progress.map((p) => [p.campaign_id, p]));
  return {
    campaigns: rows.map((c) => {
      const p = byId.get(c.id);
      const total = Number(p?.total ?? 0);
      return {
        id: c.id,
        cycleId: c.cycle_id,
        cycle: c.cycle,
        organization: c.organization,
        status: c.status,
        opensOn: localDate(new Date(c.opens_at), zone),
        dueOn: localDate(new Date(c.due_at), zone),
        decidedPercent: total === 0 ? 0 : Math.round((Number(p?.decided ?? 0) * 100) / total),
        escalated: c.escalated_at !== null,
      };
    }),
    organizationsWithoutBrm: (await store.organizationsWithoutBrm(sweep.db)).map((o) => ({
      id: o.id,
      name: o.name,
    })),
  };
}

export const EVIDENCE_COLUMNS = [
  'review_id',
  'series',
  'resource',
  'item_id',
  'vendor',
  'vendor_email',
  'reviewer',
  'decision',
  'keep_until',
  'justification',
  'decided_at',
  'vendor_answer',
  'vendor_comment',
  'recommendation',
  'applied_action',
  'by_default',
  'applied_by',
  'applied_date',
  'submission_result',
  'audit_event_ids',
];

/** The evidence of a closed campaign: the CSV and its manifest (with the CSV's SHA-256). */
export async function evidenceOf(sweep: Sweep, campaignId: string, actor: Actor, format: 'csv' | 'json') {
  const c = await store.campaignById(sweep.db, campaignId);
  if (!c) throw new AppError('notFound', reviewMessages.notFound);
  if (c.status !== 'closed') throw new AppError('conflict', reviewMessages.notClosedYet);
  const rows = await store.evidenceRows(sweep.db, c.id);
  const events = await store.campaignAuditEvents(sweep.db, c.id);
  const eventsOf = new Map<string, string[]>();
  for (const e of events) if (e.item_id) eventsOf.set(e.item_id, [...(eventsOf.get(e.item_id) ?? []), e.id]);
  const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : '');
  let csv = csvLine(EVIDENCE_COLUMNS);
  for (const r of rows) {
    csv += csvLine([
      c.id,
      c.cycle,
      c.organization,
      r.id,
      r.username,
      r.email,
      r.reviewer ?? '',
      r.decision ?? 'noResponse',
      iso(r.keep_until),
      r.reason ?? '',
      iso(r.decided_at),
      r.vendor_answer ?? '',
      r.vendor_comment ?? '',
      r.recommendation ?? '',
      r.applied_action ?? '',
      String(r.by_default ?? false),
      'system',
      iso(r.applied_at),
      r.applied_action === 'withdrawn' ? 'withdrawn' : 'applied',
      (eventsOf.get(r.id) ?? []).join(' '),
    ]);
  }
  const sha256 = createHash('sha256').update(csv, 'utf8').digest('hex');
  await recordAudit(sweep.db, {
    action: 'review.evidence-export',
    outcome: 'success',
    actor,
    organizationId: c.organization_id,
    details: { campaignId: c.id, format, sha256 },
  });
  if (format === 'csv') return { body: csv, sha256 };
  const count = (action: string, byDefault?: boolean) =>
    rows.filter((r) => r.applied_action === action && (byDefault === undefined || r.by_default === byDefault))
      .length;
  const manifest = {
    campaignId: c.id,
    cycleId: c.cycle_id,
    cycle: c.cycle,
    organization: c.organization,
    settings: {
      defaultAction: c.default_action,
      vendorConfirmation: c.vendor_confirmation,
      opensAt: iso(c.opens_at),
      dueAt: iso(c.due_at),
    },
    openedAt: iso(c.opened_at),
    escalatedAt: iso(c.escalated_at),
    closedAt: iso(c.closed_at),
    previewAtStart: c.preview_at_start,
    previewAtEscalation: c.preview_at_escalation,
    counts: {
      items: rows.length,
      kept: count('kept'),
      shortened: count('shortened'),
      removed: count('removed', false),
      removedByDefault: count('removed', true),
      keptByDefault: count('kept', true),
      withdrawn: count('withdrawn'),
    },
    files: [{ name: 'evidence.csv', sha256 }],
    auditEventIds: events.map((e) => e.id),
  };
  return { body: `${JSON.stringify(manifest, null, 2)}\n`, sha256 };
}
