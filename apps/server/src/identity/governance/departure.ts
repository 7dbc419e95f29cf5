import { addDays, daysBetween, localDate } from '../../platform/local-time';
import * as store from '../../store/departure';
import { sendLatestDueNotice, sendNoticeOnce } from '../../store/notices';
import { infosecEmails } from '../approval-routing';
import { recordAudit } from '../audit';
import { outboxRow, siteOf, SYSTEM_ACTOR } from './access-expiry';
import { inactiveBrmMail, leavingReminderMail } from './dormancy-mails';
import { eachRow, type GovernanceStep } from './sweep';
import { applyTransfer, mailAutomaticTransfer } from './transfer';

// BRM departure in the sweep (GOVERNANCE.md §6.3): T3 reminders 14 and 3 days before a leaving
// date with nothing transferred, the automatic transfer on the date, and T4 for a BRM holding
// pending work without a sign-in for 60 days.

const DAY_MS = 86_400_000;
const LEAVING_REMINDER_DAYS = [14, 3];
/** A BRM with pending work and no sign-in for this long is reported to InfoSec (our choice). */
export const BRM_INACTIVE_DAYS = 60;

/** Reminders, then the automatic transfer on the leaving date (late when the date had passed). */
export const departures: GovernanceStep = {
  name: 'departures',
  run: (sweep) => {
    const zone = sweep.config.PORTAL_TIME_ZONE;
    const today = localDate(sweep.at, zone);
    const horizon = addDays(today, Math.max(...LEAVING_REMINDER_DAYS));
    return eachRow<{ id: string }>(
      sweep,
      'departures',
      (after, limit) => store.leavingUntransferred(sweep.db, horizon, after, limit),
      async (tx, row) => {
        const person = await store.personForTransfer(tx, row.id, true);
        if (!person?.leaving_on || person.responsibilities_transferred_at) return false;
        const left = daysBetween(today, person.leaving_on);
        const name = `${person.given_name} ${person.family_name}`.trim() || person.username;
        if (left > 0) {
          const due = LEAVING_REMINDER_DAYS.filter((d) => left <= d).map(String);
          const mail = leavingReminderMail(siteOf(sweep), { brm: name, leavingOn: person.leaving_on });
          const to = await infosecEmails(tx, sweep.config);
          const sent = await sendLatestDueNotice(
            tx,
            { kind: 'brm.leaving', subjectId: `${person.id}/${person.leaving_on}` },
            due,
            sweep.at,
            () => to.map((address) => outboxRow(address, mail)),
          );
          return sent !== null;
        }
        const result = await applyTransfer(tx, {
          personId: person.id,
          notifyVendors: true,
          actor: SYSTEM_ACTOR,
          at: sweep.at,
          site: siteOf(sweep),
          automatic: true,
          late: left < 0,
        });
        await mailAutomaticTransfer(tx, sweep.config, siteOf(sweep), result);
        return true;
      },
    );
  },
};

/**
 * On the leaving date, after the transfer (by an admin earlier, or automatic in the step before),
 * the BRM role ends when the admin asked for it ("end their BRM role on that date"), audited as a
 * person change by the system. A leaver given an organization again after the transfer keeps the
 * role until that organization has another BRM (the last-BRM rule), and is retried each sweep.
 */
export const leavingRoleEnds: GovernanceStep = {
  name: 'leaving-role-ends',
  run: (sweep) => {
    const today = localDate(sweep.at, sweep.config.PORTAL_TIME_ZONE);
    return eachRow<{ id: string }>(
      sweep,
      'leaving-role-ends',
      (after, limit) => store.leaversWithBrmRole(sweep.db, today, after, limit),
      async (tx, row) => {
        const person = await store.personForTransfer(tx, row.id, true);
        if (!person?.leaving_on || person.leaving_on > today || !person.leaving_ends_role) return false;
        if ((await store.assignedOrganizations(tx, person.id)).length > 0) return false;
        if (!(await store.endBrmRole(tx, person.id))) return false;
        await recordAudit(tx, {
          action: 'person.change',
          outcome: 'success',
          actor: SYSTEM_ACTOR,
          target: { id: person.id, username: person.username },
          details: { is_employee_brm: false, cause: 'leaving', leavingOn: person.leaving_on },
        });
        return true;
      },
    );
  },
};

/** T4: a BRM with pending items in an organization they manage, no sign-in for 60 days. */
export const brmInactiveAlerts: GovernanceStep = {
  name: 'brm-inactive-alerts',
  run: (sweep) => {
    const cutoff = new Date(sweep.at.getTime() - BRM_INACTIVE_DAYS * DAY_MS);
    return eachRow<{ id: string }>(
      sweep,
      'brm-inactive-alerts',
      (after, limit) => store.idleBrmsWithPendingWork(sweep.db, cutoff, after, limit),
      async (tx, row) => {
        const brm = await store.brmPendingWork(tx, row.id);
        const { pending } = brm;
        if (pending === 0) return false;
        const name = `${brm.given_name} ${brm.family_name}`.trim() || brm.username;
        const mail = inactiveBrmMail(siteOf(sweep), { brm: name, pending });
        // Once per stretch of inactivity: a sign-in starts another.
        const sent = await sendNoticeOnce(
          tx,
          {
            kind: 'brm.inactive',
            subjectId: `${brm.id}/${brm.since.toISOString()}`,
            milestone: '60',
          },
          sweep.at,
          (await infosecEmails(tx, sweep.config)).map((to) => outboxRow(to, mail)),
        );
        if (!sent) return false;
        await recordAudit(tx, {
          action: 'brm.inactive-alert',
          outcome: 'success',
          actor: SYSTEM_ACTOR,
          target: { id: brm.id, username: brm.username },
          details: { pendingItems: pending, since: brm.since.toISOString() },
        });
        return true;
      },
    );
  },
};
