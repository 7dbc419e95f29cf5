import {
  addDays,
  daysLeft,
  endOfLocalDay,
  localDate,
  localHour,
  localInstant,
} from '../../platform/local-time';
import {
  DIGEST_KIND,
  digestEnded,
  digestEnding,
  digestAupOverdue,
  digestInactive,
  digestRecipients,
  digestSince,
  type DigestRecipient,
  type DigestWindow,
} from '../../store/access-digest';
import type { Tx } from '../../platform/db';
import { sendNoticeOnce } from '../../store/notices';
import { outboxRow, siteOf } from './access-expiry';
import { accessDigestMail } from './expiry-mails';
import { eachRow, type GovernanceStep, type Sweep } from './sweep';

// The BRMs' daily digest (GOVERNANCE.md §2.6, §3.5 X3): from 08:00 in the hospital's zone, one
// mail a day to each primary BRM and sponsor of record with something to read: access ending in
// their organizations in the next 14 days, access that ended, accounts disabled for no access and,
// §6.5 D2, for inactivity.
// Idempotent: governance_notices holds (digest.brm, recipient, date) and the mail is queued only
// when that row is new, in the same transaction. Catch-up: a day the sweeper missed gets no digest
// of its own; the next one lists what ended since the last one (at most a week back).

/** The digest goes out from this local hour on. */
export const DIGEST_HOUR = 8;
const DAY_MS = 86_400_000;
const MIDNIGHT = { hour: 0, minute: 0, second: 0 };

/** The digest's window at `at`, or null before DIGEST_HOUR (nothing is due yet that day). */
export function digestWindow(at: Date, zone: string): DigestWindow | null {
  if (localHour(at, zone) < DIGEST_HOUR) return null;
  const date = localDate(at, zone);
  const days = [7, 6, 5, 4, 3, 2, 1].map((back) => {
    const day = addDays(date, -back);
    return { date: day, start: localInstant(day, MIDNIGHT, zone) };
  });
  return {
    date,
    at,
    horizon: endOfLocalDay(addDays(date, 14), zone),
    dayStart: localInstant(date, MIDNIGHT, zone),
    yesterdayStart: days.at(-1)!.start,
    days,
  };
}

/** One recipient's digest, once for the day; false when there is nothing to say (or it went out). */
async function sendDigest(sweep: Sweep, w: DigestWindow, tx: Tx, to: DigestRecipient): Promise<boolean> {
  const zone = sweep.config.PORTAL_TIME_ZONE;
  const since = await digestSince(tx, to.id, w);
  const ending = await digestEnding(tx, to.id, w);
  const ended = await digestEnded(tx, to.id, w, since);
  const inactive = await digestInactive(tx, to.id, w, since);
  const aupOverdue = await digestAupOverdue(tx, to.id);
  if (ending.length === 0 && ended.length === 0 && inactive.length === 0 && aupOverdue.length === 0) {
    return false;
  }
  const closeAfter = sweep.policies.standard.terminateAfterDisableDays;
  const disabled = new Map<string, { vendor: string; closesOn: string }>();
  for (const row of ended) {
    if (row.disabled_at === null) continue;
    const closesOn = localDate(new Date(new Date(row.disabled_at).getTime() + closeAfter * DAY_MS), zone);
    disabled.set(row.username, { vendor: row.vendor, closesOn });
  }
  const mail = accessDigestMail(siteOf(sweep), {
    firstName: to.given_name,
    ending: ending.map((r) => ({
      vendor: r.vendor,
      organization: r.organization,
      endsOn: localDate(new Date(r.at), zone),
      daysLeft: daysLeft(w.at, new Date(r.at), zone),
    })),
    ended: ended.map((r) => ({
      vendor: r.vendor,
      organization: r.organization,
      endedOn: localDate(new Date(r.at), zone),
      reason: r.end_reason,
    })),
    disabled: [...disabled.values()],
    inactive: inactive.map((r) => ({
      vendor: r.vendor,
      disabledOn: localDate(new Date(r.disabled_at), zone),
      closesOn: localDate(new Date(new Date(r.disabled_at).getTime() + closeAfter * DAY_MS), zone),
    })),
    since: since.getTime() === w.yesterdayStart.getTime() ? null : localDate(since, zone),
    aupOverdue: aupOverdue.map((r) => ({ organization: r.organization, vendors: Number(r.vendors) })),
  });
  return sendNoticeOnce(tx, { kind: DIGEST_KIND, subjectId: to.id, milestone: w.date }, sweep.at, [
    outboxRow(to.email, mail),
  ]);
}

/** The last step: the BRMs' daily digest. */
export const brmDigest: GovernanceStep = {
  name: 'brm-digest',
  run: async (sweep) => {
    const w = digestWindow(sweep.at, sweep.config.PORTAL_TIME_ZONE);
    if (!w) return { done: 0, failed: 0 };
    return eachRow<DigestRecipient>(
      sweep,
      'brm-digest',
      (after, limit) => digestRecipients(sweep.db, w, after, limit),
      (tx, row) => sendDigest(sweep, w, tx, row),
    );
  },
};
