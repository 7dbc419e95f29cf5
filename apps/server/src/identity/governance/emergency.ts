import type { Tx } from '../../platform/db';
import { localDate } from '../../platform/local-time';
import * as emergencies from '../../store/emergencies';
import * as grants from '../../store/grants';
import { addRouting, markForwarded } from '../../store/approval-routing';
import { sendLatestDueNotice } from '../../store/notices';
import { insertMails } from '../../store/outbox';
import { approversOf, infosecEmails, INFOSEC_NAME, mailDate, uniqueRecipients } from '../approval-routing';
import { recordAudit } from '../audit';
import { disableAccountsLeftWithoutAccess, outboxRow, siteOf, SYSTEM_ACTOR } from './access-expiry';
import {
  departureForwardedMail,
  emergencyEndedMail,
  emergencyReminderMail,
  mailTime,
} from './emergency-mails';
import { eachRow, type GovernanceStep, type Sweep } from './sweep';

// Emergency access (GOVERNANCE.md §10.1): the grant ends by itself after its hours (sweep step 11)
// or by "Remove now"; the BRMs' acknowledgement is due within 5 days, reminded on day 3 and, once
// overdue, forwarded to the backups and InfoSec. Reported departures (§10.2): a report nobody decided
// within the tier's hours goes to InfoSec (step 12).

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The BRMs acknowledge an emergency grant within this many days (§10.1). */
export const ACKNOWLEDGE_DAYS = 5;
/** The reminder before the acknowledgement is due. */
export const ACKNOWLEDGE_REMINDER_DAY = 3;

/** What ending an emergency grant needs: the settings, the instant, the tiers' policies. */
export type EndContext = Pick<Sweep, 'config' | 'at' | 'policies'>;

const personName = (p: { given_name: string; family_name: string; username: string }) =>
  `${p.given_name} ${p.family_name}`.trim() || p.username;

/**
 * Ends a current emergency grant (`expired`: its hours are over, by the sweep; `removed`: "Remove
 * now"), once: its role_grants row goes to grant_history (`emergencyEnded`) through the grants'
 * one ending path (the directory's groups follow its triggers), `emergency.end` is audited, the
 * vendor, the organization's BRMs and InfoSec are mailed, and an account left with no access is
 * disabled (§3.3), all in the caller's transaction. A grant an ordinary one replaced is not
 * touched. Returns whether this call ended it.
 */
export async function endEmergency(
  tx: Tx,
  env: EndContext,
  o: {
    id: string;
    how: 'expired' | 'removed';
    actor: { id: string | null; username: string; name?: string };
    clientAddress?: string;
  },
): Promise<boolean> {
  const e = await emergencies.currentEmergencyForUpdate(tx, o.id);
  if (!e) return false;
  if (o.how === 'expired' && new Date(e.ends_at) > env.at) return false;
  const ended = await grants.endGrant(tx, {
    account_id: e.account_id,
    organization_id: e.organization_id,
    at: env.at,
    reason: 'emergencyEnded',
    endedBy: o.actor.id,
    emergencyId: e.id,
  });
  await emergencies.markEmergencyEnded(tx, { id: e.id, at: env.at, reason: o.how, endedBy: o.actor.id });
  await recordAudit(tx, {
    action: 'emergency.end',
    outcome: 'success',
    actor: { id: o.actor.id, username: o.actor.username },
    target: { id: e.account_id, username: e.username },
    organizationId: e.organization_id,
    ...(o.clientAddress ? { clientAddress: o.clientAddress } : {}),
    details: { emergencyId: e.id, ticket: e.ticket, reason: o.how, grantEnded: ended !== undefined },
  });
  if (!ended) return true;
  const zone = env.config.PORTAL_TIME_ZONE;
  const site = siteOf(env);
  const a = await approversOf(
    tx,
    env.config,
    { organizationId: e.organization_id, createdAt: env.at, forwarded: false },
    env.at,
  );
  const infosec = (await infosecEmails(tx, env.config)).map((email) => ({ email, name: INFOSEC_NAME }));
  const to = uniqueRecipients([{ email: e.email, name: personName(e) }], a.primary, a.delegates, infosec);
  const mail = emergencyEndedMail(site, {
    vendor: personName(e),
    organization: e.organization,
    ticket: e.ticket,
    endsAt: mailTime(o.how === 'expired' ? new Date(e.ends_at) : env.at, zone),
    how: o.how,
    by: o.actor.name ?? null,
  });
  await insertMails(
    tx,
    to.map((r) => outboxRow(r.email, mail)),
  );
  await disableAccountsLeftWithoutAccess(env, tx, [e.account_id]);
  return true;
}

/** Step (11): emergency grants whose hours are over end by themselves. */
export const endEmergencyGrants: GovernanceStep = {
  name: 'end-emergency-grants',
  run: (sweep) =>
    eachRow<{ id: string }>(
      sweep,
      'end-emergency-grants',
      (after, limit) => emergencies.emergencyGrantsDue(sweep.db, sweep.at, after, limit),
      (tx, row) => endEmergency(tx, sweep, { id: row.id, how: 'expired', actor: SYSTEM_ACTOR }),
    ),
  due: (sweep, until) => emergencies.countEmergencyGrantsDue(sweep.db, until),
};

/** The milestones of an emergency follow-up due at `now`, in order: the day-3 reminder, then overdue. */
export function acknowledgeMilestones(grantedAt: Date, dueAt: Date, now: Date): string[] {
  const due: string[] = [];
  if (now.getTime() >= grantedAt.getTime() + ACKNOWLEDGE_REMINDER_DAY * DAY_MS) due.push('remind');
  if (now >= dueAt) due.push('overdue');
  return due;
}

/**
 * Step (11), its follow-up: reminders to the BRMs who have not acknowledged an emergency grant (day
 * 3), and at the deadline the overdue mail, to the backups and InfoSec as well (the item is
 * forwarded). Once each, with the catch-up rule.
 */
export const emergencyAcknowledgeReminders: GovernanceStep = {
  name: 'emergency-acknowledge-reminders',
  run: (sweep) => {
    const zone = sweep.config.PORTAL_TIME_ZONE;
    const grantedBy = new Date(sweep.at.getTime() - ACKNOWLEDGE_REMINDER_DAY * DAY_MS);
    return eachRow<Awaited<ReturnType<typeof emergencies.unacknowledgedEmergencies>>[number]>(
      sweep,
      'emergency-acknowledge-reminders',
      (after, limit) => emergencies.unacknowledgedEmergencies(sweep.db, grantedBy, after, limit),
      async (tx, row) => {
        const due = acknowledgeMilestones(new Date(row.granted_at), new Date(row.expires_at), sweep.at);
        const item = await emergencies.emergencyItemForUpdate(tx, row.itemId);
        if (!item || item.status !== 'pending') return false;
        const overdue = due.at(-1) === 'overdue';
        const site = siteOf(sweep);
        const sent = await sendLatestDueNotice(
          tx,
          { kind: 'emergency.acknowledge', subjectId: row.id },
          due,
          sweep.at,
          () => [],
        );
        if (sent === null) return false;
        if (overdue) await markForwarded(tx, item.id, sweep.at);
        const a = await approversOf(
          tx,
          sweep.config,
          { organizationId: item.organization_id, createdAt: new Date(item.created_at), forwarded: overdue },
          sweep.at,
        );
        const infosec = overdue
          ? (await infosecEmails(tx, sweep.config)).map((email) => ({ email, name: INFOSEC_NAME }))
          : [];
        const to = uniqueRecipients(a.primary, a.delegates, a.forwardedTo, infosec);
        const mail = emergencyReminderMail(site, {
          vendor: personName(item),
          organization: item.organization,
          ticket: item.ticket,
          acknowledgeBy: mailDate(new Date(row.expires_at), zone),
          overdue,
        });
        await insertMails(
          tx,
          to.map((r) => outboxRow(r.email, mail)),
        );
        await addRouting(tx, [
          {
            itemId: item.id,
            at: sweep.at,
            event: overdue ? 'forwarded' : 'reminded',
            recipients: [...new Set(to.map((r) => r.name))],
          },
        ]);
        await recordAudit(tx, {
          action: 'emergency.remind',
          outcome: 'success',
          actor: SYSTEM_ACTOR,
          target: { id: item.accountId, username: item.username },
          organizationId: item.organization_id,
          details: { emergencyId: row.id, milestone: sent },
        });
        return true;
      },
    );
  },
};

/**
 * Step (12): a reported departure nobody decided within the tier's hours (24, high 4) is forwarded
 * to InfoSec, once: the report and its item are marked forwarded, `departure.forward` audited and
 * InfoSec mailed, in one transaction.
 */
export const forwardDepartureReports: GovernanceStep = {
  name: 'departure-report-deadlines',
  run: (sweep) =>
    eachRow<{ id: string }>(
      sweep,
      'departure-report-deadlines',
      (after, limit) => emergencies.reportsPastDue(sweep.db, sweep.at, after, limit),
      async (tx, row) => {
        const report = await emergencies.reportToForward(tx, row.id);
        if (!report || new Date(report.due_at) > sweep.at) return false;
        await emergencies.markReportForwarded(tx, report.id, sweep.at);
        await markForwarded(tx, report.itemId, sweep.at);
        const zone = sweep.config.PORTAL_TIME_ZONE;
        const infosec = (await infosecEmails(tx, sweep.config)).map((email) => ({
          email,
          name: INFOSEC_NAME,
        }));
        const mail = departureForwardedMail(siteOf(sweep), {
          vendor: personName(report),
          organization: report.organization,
          reporter: report.reporterUsername
            ? personName({
                given_name: report.reporterGivenName ?? '',
                family_name: report.reporterFamilyName ?? '',
                username: report.reporterUsername,
              })
            : 'A vendor',
          leftOn: report.left_on,
          decideBy: mailTime(new Date(report.due_at), zone),
        });
        await insertMails(
          tx,
          infosec.map((r) => outboxRow(r.email, mail)),
        );
        await addRouting(tx, [
          { itemId: report.itemId, at: sweep.at, event: 'forwarded', recipients: [INFOSEC_NAME] },
        ]);
        await recordAudit(tx, {
          action: 'departure.forward',
          outcome: 'success',
          actor: SYSTEM_ACTOR,
          target: { id: report.target_id, username: report.username },
          organizationId: report.organization_id,
          details: { reportId: report.id, to: 'infosec', dueAt: new Date(report.due_at).toISOString() },
        });
        return true;
      },
    ),
};

/** The day an emergency follow-up is due, as the hospital's calendar shows it. */
export const acknowledgeDueOn = (at: Date, zone: string) =>
  localDate(new Date(at.getTime() + ACKNOWLEDGE_DAYS * DAY_MS), zone);
