import { daysLeft, localDate } from '../../platform/local-time';
import * as dormancy from '../../store/dormancy';
import { organizationsOfAccount, removeRolesIn } from '../../store/grants';
import { sendLatestDueNotice } from '../../store/notices';
import { cancelPendingForAccount } from '../../store/requests';
import * as sessions from '../../store/sessions';
import { recordAudit } from '../audit';
import { enqueueMail } from '../outbox';
import { dueNoticeDays, outboxRow, siteOf, SYSTEM_ACTOR } from './access-expiry';
import { dormantClosedMail, inactivityDisabledMail, inactivityWarningMail } from './dormancy-mails';
import { eachRow, type GovernanceStep } from './sweep';

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
  return (await dormancy.sponsorsOf(db, accountId))
    .filter((s) => s.sponsor_id !== null)
    .map((s) => `${s.organization}: ${s.given_name} ${s.family_name}, ${s.email}`);
}

/** Step (6): inactivity warnings (D1) and the disable (D2). */
export const inactivity: GovernanceStep = {
  name: 'inactivity',
  run: (sweep) => {
    const zone = sweep.config.PORTAL_TIME_ZONE;
    // The earliest a warning can be due: the smallest "disable minus first warning" of any tier.
    const lead = Math.min(
      ...Object.values(sweep.policies).map(
        (p) => p.inactivityDisableDays - Math.max(0, ...p.inactivityWarningDays) - 1,
      ),
    );
    const startedBy = new Date(sweep.at.getTime() - lead * DAY_MS);
    return eachRow<{ id: string }>(
      sweep,
      'inactivity',
      (after, limit) => dormancy.idleVendors(sweep.db, startedBy, after, limit),
      async (tx, row) => {
        const account = await dormancy.idleVendorForUpdate(tx, row.id);
        if (!account) return false;
        const policy = sweep.policies[account.tier];
        const disableAt = new Date(account.clock_start.getTime() + policy.inactivityDisableDays * DAY_MS);
        const sponsors = await sponsorLines(tx, account.id);
        if (sweep.at >= disableAt) {
          if (!(await dormancy.disableInactive(tx, account.id, sweep.at))) return false;
          await sessions.revokeAllOfAccounts(tx, [account.id]);
          const days = Math.floor((sweep.at.getTime() - account.clock_start.getTime()) / DAY_MS);
          await recordAudit(tx, {
            action: 'account.disable',
            outcome: 'success',
            actor: SYSTEM_ACTOR,
            target: { id: account.id, username: account.username },
            details: { reason: 'inactive', inactiveDays: days, since: account.clock_start.toISOString() },
          });
          const closesOn = localDate(
            new Date(sweep.at.getTime() + policy.terminateAfterDisableDays * DAY_MS),
            zone,
          );
          await enqueueMail(tx, {
            to: account.email,
            ...inactivityDisabledMail(siteOf(sweep), {
              firstName: account.given_name,
              days,
              closesOn,
              sponsors,
            }),
          });
          return true;
        }
        const left = daysLeft(sweep.at, disableAt, zone);
        const due = dueNoticeDays(policy.inactivityWarningDays, left).map(String);
        const signInBy = localDate(new Date(disableAt.getTime() - 1), zone);
        const sent = await sendLatestDueNotice(
          tx,
          inactivitySeries(account.id, account.clock_start),
          due,
          sweep.at,
          () => [
            outboxRow(
              account.email,
              inactivityWarningMail(siteOf(sweep), { firstName: account.given_name, signInBy, sponsors }),
            ),
          ],
        );
        if (sent === null) return false;
        await recordAudit(tx, {
          action: 'account.inactivity-warning',
          outcome: 'success',
          actor: SYSTEM_ACTOR,
          target: { id: account.id, username: account.username },
          details: { milestone: Number(sent), disableOn: signInBy },
        });
        return true;
      },
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
