import { daysLeft, localDate } from '../../platform/local-time';
import * as dormancy from '../../store/dormancy';
import { organizationsOfAccount, removeRolesIn } from '../../store/grants';
import { sendLatestDueNotices } from '../../store/notices';
import type { Tx } from '../../platform/db';
import { cancelPendingForAccount } from '../../store/requests';
import { recordAudit, recordAudits } from '../audit';
import { enqueueMail } from '../outbox';
import { dueNoticeDays, endDisabledAccounts, outboxRow, siteOf, SYSTEM_ACTOR } from './access-expiry';
import { dormantClosedMail, inactivityDisabledMail, inactivityWarningMail } from './dormancy-mails';
import { eachBatch, eachRow, type GovernanceStep, type Sweep } from './sweep';

// Dormant accounts (GOVERNANCE.md §6.3): vendors without a sign-in for the tier's days are warned
// twice, then disabled; 30 days after that, or 30 days after approval when never activated, the
// account is closed. Employees are never touched. The clock runs from the latest of the last
// sign-in, the last "Enable User" and the account's creation, so a sign-in or a re-enable starts a
// new warning series: the pending warnings are withdrawn by construction.

const DAY_MS = 86_400_000;

/** The warning series of one clock start: a sign-in or re-enable starts another. */
export const inactivitySeries = (accountId: string, clockStart: Date) => ({
  kind: 'account.inactivity',
  subjectId: `${accountId}/${clockStart.toISOString()}`,
});

/** "Org: Name, email" for each sponsor of the account (D1, D2, the Profile). */
export async function sponsorLines(db: Parameters<typeof dormancy.sponsorsOf>[0], accountId: string) {
  return linesOf(await dormancy.sponsorsOf(db, accountId));
}

const linesOf = (sponsors: Awaited<ReturnType<typeof dormancy.sponsorsOf>>) =>
  sponsors
    .filter((s) => s.sponsor_id !== null)
    .map((s) => `${s.organization}: ${s.given_name} ${s.family_name}, ${s.email}`);

/**
 * Warns (D1) or disables (D2) the batch's vendors still idle, set-based in the caller's
 * transaction: one statement locks and reads them all, one reads their sponsors, one disables,
 * one records the warnings; audit events and mails go in a statement each. A vendor is warned or
 * disabled at most once (the notice's unique key, the disable's `status = 'active'`), whichever
 * instance gets to it first. Returns how many vendors were warned or disabled.
 */
async function warnOrDisable(sweep: Sweep, tx: Tx, ids: readonly string[]): Promise<number> {
  const zone = sweep.config.PORTAL_TIME_ZONE;
  const site = siteOf(sweep);
  const accounts = (await dormancy.idleVendorsForUpdate(tx, ids)).map((account) => ({
    ...account,
    policy: sweep.policies[account.tier],
    disableAt: new Date(
      account.clock_start.getTime() + sweep.policies[account.tier].inactivityDisableDays * DAY_MS,
    ),
  }));
  if (accounts.length === 0) return 0;
  const sponsors = await dormancy.sponsorsOfAccounts(
    tx,
    accounts.map((a) => a.id),
  );
  const sponsorsOf = (id: string) => linesOf(sponsors.filter((s) => s.account_id === id));

  const toDisable = accounts.filter((a) => sweep.at >= a.disableAt);
  const disabledIds = new Set(
    await dormancy.disableInactive(
      tx,
      toDisable.map((a) => a.id),
      sweep.at,
    ),
  );
  const disabled = toDisable
    .filter((a) => disabledIds.has(a.id))
    .map((a) => ({ ...a, days: Math.floor((sweep.at.getTime() - a.clock_start.getTime()) / DAY_MS) }));
  await endDisabledAccounts(
    tx,
    disabled.map((a) => ({
      ...a,
      details: { reason: 'inactive', inactiveDays: a.days, since: a.clock_start.toISOString() },
      mail: inactivityDisabledMail(site, {
        firstName: a.given_name,
        days: a.days,
        closesOn: localDate(new Date(sweep.at.getTime() + a.policy.terminateAfterDisableDays * DAY_MS), zone),
        sponsors: sponsorsOf(a.id),
      }),
    })),
  );

  const warned = await sendLatestDueNotices(
    tx,
    accounts
      .filter((a) => sweep.at < a.disableAt)
      .map((a) => ({
        account: a,
        series: inactivitySeries(a.id, a.clock_start),
        due: dueNoticeDays(a.policy.inactivityWarningDays, daysLeft(sweep.at, a.disableAt, zone)).map(String),
        signInBy: localDate(new Date(a.disableAt.getTime() - 1), zone),
      })),
    sweep.at,
    ({ account, signInBy }) => [
      outboxRow(
        account.email,
        inactivityWarningMail(site, {
          firstName: account.given_name,
          signInBy,
          sponsors: sponsorsOf(account.id),
        }),
      ),
    ],
  );
  await recordAudits(
    tx,
    warned.map(({ item, milestone }) => ({
      action: 'account.inactivity-warning',
      outcome: 'success' as const,
      actor: SYSTEM_ACTOR,
      target: { id: item.account.id, username: item.account.username },
      details: { milestone: Number(milestone), disableOn: item.signInBy },
    })),
  );
  return disabled.length + warned.length;
}

/**
 * Step (6): inactivity warnings (D1) and the disable (D2), a transaction per batch of idle
 * vendors (eachBatch: a batch that fails goes again a vendor per transaction).
 */
export const inactivity: GovernanceStep = {
  name: 'inactivity',
  run: (sweep) => {
    // The earliest a warning can be due: the smallest "disable minus first warning" of any tier.
    const lead = Math.min(
      ...Object.values(sweep.policies).map(
        (p) => p.inactivityDisableDays - Math.max(0, ...p.inactivityWarningDays) - 1,
      ),
    );
    const startedBy = new Date(sweep.at.getTime() - lead * DAY_MS);
    return eachBatch<{ id: string }>(
      sweep,
      'inactivity',
      (after, limit) => dormancy.idleVendors(sweep.db, startedBy, after, limit),
      (tx, rows) =>
        warnOrDisable(
          sweep,
          tx,
          rows.map((r) => r.id),
        ),
    );
  },
};

/** Step (7), for dormancy: close accounts disabled for inactivity 30 days ago and never-activated ones. */
export const closeDormantAccounts: GovernanceStep = {
  name: 'close-dormant-accounts',
  run: (sweep) => {
    const standard = sweep.policies.standard;
    const bounds = {
      disabledBy: new Date(sweep.at.getTime() - standard.terminateAfterDisableDays * DAY_MS),
      createdBy: new Date(sweep.at.getTime() - standard.neverActivatedCloseDays * DAY_MS),
      at: sweep.at,
    };
    return eachRow<{ id: string }>(
      sweep,
      'close-dormant-accounts',
      (after, limit) => dormancy.dormantToClose(sweep.db, bounds, after, limit),
      async (tx, row) => {
        const closed = await dormancy.closeDormant(tx, row.id, bounds);
        if (!closed) return false;
        const neverActivated = closed.disabled_reason !== 'inactive';
        const organizations = (await organizationsOfAccount(tx, closed.id)).map((o) => o.id);
        await removeRolesIn(tx, [closed.id], organizations, {
          at: sweep.at,
          endedBy: null,
          terminated: [closed.id],
        });
        const cancelled = await cancelPendingForAccount(tx, {
          accountId: closed.id,
          reason: 'Account closed',
          at: sweep.at,
        });
        await recordAudit(tx, {
          action: 'account.terminate',
          outcome: 'success',
          actor: SYSTEM_ACTOR,
          target: { id: closed.id, username: closed.username },
          details: { reason: neverActivated ? 'neverActivated' : 'inactive30d', cancelledItems: cancelled },
        });
        await enqueueMail(tx, {
          to: closed.email,
          ...dormantClosedMail(siteOf(sweep), { firstName: closed.given_name, neverActivated }),
        });
        return true;
      },
    );
  },
};
