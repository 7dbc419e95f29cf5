import type { AupStanding, GovernanceSettings } from '@pra/contracts';
import type { Db, Tx } from '../../platform/db';
import {
  addDays,
  daysBetween,
  daysLeft,
  endOfLocalDay,
  localDate,
  localInstant,
} from '../../platform/local-time';
import * as aup from '../../store/aup';
import { sendLatestDueNotice } from '../../store/notices';
import { recordAudit } from '../audit';
import { dueNoticeDays, outboxRow, siteOf, SYSTEM_ACTOR } from './access-expiry';
import { aupReminderMail } from './aup-mails';
import { eachRow, type GovernanceStep } from './sweep';

// The yearly Acceptable Use Policy attestation (GOVERNANCE.md §8.2): where each vendor stands,
// and the sweep step that reminds (U1) and blocks (aup.overdue). Only active vendors holding a
// grant are asked; employees never.
//
// A vendor's review is due on the anniversary of their last acceptance (the tier's
// `aupRenewalDays`, 365) or on the effective date of a version newer than the one accepted,
// whichever comes first; it is `due` from 30 days before that anniversary or from that version's
// publication, and `overdue` once the grace (`aupGraceDays`, 30) after the due date has passed
// (at 23:59:59 of its last day, hospital time). One acceptance of the newest version settles both.
// A vendor with no recorded acceptance (activated before acceptances were recorded) counts as
// having accepted version 1 when the account was made, but never earlier than 60 days before the
// upgrade's renewal: everyone then has the due period and the grace to accept.

/** The due state starts this many days before the anniversary; U1 goes out 30 and 7 days before. */
export const DUE_LEAD_DAYS = 30;
export const REMINDER_DAYS = [30, 7] as const;
const DAY_MS = 86_400_000;
const MIDNIGHT = { hour: 0, minute: 0, second: 0 };

export type VersionFacts = Pick<aup.AupVersionRow, 'id' | 'version' | 'effective_on' | 'published_at'>;

export interface Standing extends AupStanding {
  /** When the due state began or begins. */
  dueFrom: Date;
  /** The instant past which the vendor is overdue (end of `blocksAfter`). */
  overdueAt: Date;
  /** The newest version (the one to accept). */
  newest: number;
}

type Terms = Pick<GovernanceSettings, 'aupRenewalDays' | 'aupGraceDays'>;

/** Where a vendor stands at `now`. `versions` oldest first, never empty (version 1 is seeded). */
export function standingOf(
  vendor: Pick<aup.AupFacts, 'accepted_version' | 'accepted_at' | 'created_at'>,
  versions: readonly VersionFacts[],
  terms: Terms,
  now: Date,
  zone: string,
): Standing {
  const first = versions[0]!;
  const newest = versions.at(-1)!.version;
  const floor = new Date(first.published_at.getTime() - (terms.aupRenewalDays - 2 * DUE_LEAD_DAYS) * DAY_MS);
  const acceptedAt = vendor.accepted_at ?? new Date(Math.max(vendor.created_at.getTime(), floor.getTime()));
  const acceptedVersion = vendor.accepted_version ?? first.version;
  // The yearly review.
  let dueOn = addDays(localDate(acceptedAt, zone), terms.aupRenewalDays);
  let dueFrom = localInstant(addDays(dueOn, -DUE_LEAD_DAYS), MIDNIGHT, zone);
  // A newer version: due on its effective date, from its publication.
  for (const v of versions) {
    if (v.version <= acceptedVersion) continue;
    if (v.effective_on < dueOn) dueOn = v.effective_on;
    if (v.published_at < dueFrom) dueFrom = v.published_at;
  }
  const blocksAfter = addDays(dueOn, terms.aupGraceDays);
  const overdueAt = endOfLocalDay(blocksAfter, zone);
  const state = now > overdueAt ? 'overdue' : now >= dueFrom ? 'due' : 'current';
  const today = localDate(now, zone);
  return {
    state,
    acceptedVersion: vendor.accepted_version,
    acceptedOn: vendor.accepted_at ? localDate(vendor.accepted_at, zone) : null,
    dueOn,
    blocksAfter,
    reviewBy: today <= dueOn ? dueOn : blocksAfter,
    dueFrom,
    overdueAt,
    newest,
  };
}

/** The terms of a vendor's tier. */
export function termsOf(
  policies: Record<'standard' | 'high', GovernanceSettings>,
  tier: 'standard' | 'high',
) {
  return policies[tier];
}

/** The U1 series of one due date: a new acceptance (a new due date) starts a new series. */
export const reminderSeries = (accountId: string, dueOn: string) => ({
  kind: 'aup.reminder',
  subjectId: `${accountId}/${dueOn}`,
});

/** The reminders due at `now`: 30 and 7 days before the due date, none before the due state began. */
export function dueReminders(s: Standing, now: Date, zone: string): string[] {
  const left = daysLeft(now, endOfLocalDay(s.dueOn, zone), zone);
  if (left < 0) return [];
  const span = daysBetween(localDate(s.dueFrom, zone), s.dueOn);
  return dueNoticeDays([...REMINDER_DAYS], left)
    .filter((days) => days <= span)
    .map(String);
}

/** Step (10): Acceptable Use Policy reminders (U1) and blocks (`aup.overdue`). */
export const aupReminders: GovernanceStep = {
  name: 'aup-reminders',
  run: async (sweep) => {
    const zone = sweep.config.PORTAL_TIME_ZONE;
    const versions = await aup.listVersions(sweep.db);
    const shortest = Math.min(...Object.values(sweep.policies).map((p) => p.aupRenewalDays));
    const bounds = {
      acceptedBy: new Date(sweep.at.getTime() - (shortest - DUE_LEAD_DAYS - 1) * DAY_MS),
      newest: versions.at(-1)!.version,
    };
    return eachRow<aup.AupFacts>(
      sweep,
      'aup-reminders',
      (after, limit) => aup.sweepCandidates(sweep.db, bounds, after, limit),
      async (tx, row) => {
        await aup.lockAccount(tx, row.id);
        // Re-read under the lock: an acceptance committed meanwhile wins.
        const facts = await aup.factsOf(tx, row.id);
        if (!facts || facts.aup_overdue_since) return false;
        const s = standingOf(facts, versions, termsOf(sweep.policies, facts.tier), sweep.at, zone);
        if (s.state === 'overdue') {
          if (!(await aup.setOverdue(tx, facts.id, sweep.at))) return false;
          await recordAudit(tx, {
            action: 'aup.overdue',
            outcome: 'success',
            actor: SYSTEM_ACTOR,
            target: { id: facts.id, username: facts.username },
            details: {
              version: s.newest,
              acceptedVersion: s.acceptedVersion,
              dueOn: s.dueOn,
              blocksAfter: s.blocksAfter,
            },
          });
          return true;
        }
        if (s.state !== 'due') return false;
        const due = dueReminders(s, sweep.at, zone);
        const sent = await sendLatestDueNotice(tx, reminderSeries(facts.id, s.dueOn), due, sweep.at, () => [
          outboxRow(
            facts.email,
            aupReminderMail(siteOf(sweep), { firstName: facts.given_name, dueOn: s.dueOn }),
          ),
        ]);
        return sent !== null;
      },
    );
  },
};

/** A vendor's standing now, or null when the account is not asked (employees, no grant, inactive). */
export async function standingNow(
  db: Db | Tx,
  accountId: string,
  policies: Record<'standard' | 'high', GovernanceSettings>,
  now: Date,
  zone: string,
): Promise<{ facts: aup.AupFacts; standing: Standing; versions: aup.AupVersionRow[] } | null> {
  const facts = await aup.factsOf(db, accountId);
  if (!facts) return null;
  const versions = await aup.listVersions(db);
  return { facts, standing: standingOf(facts, versions, termsOf(policies, facts.tier), now, zone), versions };
}
