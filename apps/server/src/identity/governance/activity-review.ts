import {
  activityReviewMessages as text,
  adminRoutes,
  periodText,
  type ActivityDigest,
  type ActivitySection,
  type ActivitySectionKey,
} from '@pra/contracts';
import type { Db, Tx } from '../../platform/db';
import { addDays, localDate, localInstant } from '../../platform/local-time';
import * as store from '../../store/activity-reviews';
import { sendNoticeOnce } from '../../store/notices';
import { infosecEmails } from '../approval-routing';
import { recordAudit } from '../audit';
import { compose, linkPara, para, type MailContent, type MailSite } from '../mail-templates';
import { outboxRow, siteOf, SYSTEM_ACTOR } from './access-expiry';
import { eachRow, type GovernanceStep, type StepOutcome, type Sweep } from './sweep';

// The weekly activity review (GOVERNANCE.md §9.4): every Monday from 06:00 in the hospital's zone
// the digest of the previous Monday 00:00 to this Monday 00:00 (local; 167 or 169 hours across a
// DST change) is made from the audit trail and stored as a snapshot, audited
// `activity-review.generate`, and InfoSec gets mail A1; A2 reminds once 3 days later while the week
// is not reviewed. Idempotent under races: the week's row (unique on its Monday) is inserted with
// ON CONFLICT DO NOTHING, and its audit event and mail are written only by the transaction whose
// insert took, in that transaction; the mails are governance notices besides (unique key).

/** The digest is due from this local hour on Mondays. */
export const ACTIVITY_REVIEW_HOUR = 6;
/** A2 goes this long after the digest was generated, once, if nobody marked it reviewed. */
export const REMINDER_AFTER_MS = 3 * 86_400_000;
/** After downtime, missed weeks are generated up to this many (A1 only for the newest). */
export const MAX_CATCH_UP_WEEKS = 12;
/** Events listed per section (counts and audit-trail links cover them all). */
export const LISTED_PER_SECTION = 100;
/** A reporter with this many reports dismissed in one week is named (possible abuse, §10.2). */
export const REPEATED_DISMISSALS = 2;
export const NOTICE_KIND = 'activity-review';

const MIDNIGHT = { hour: 0, minute: 0, second: 0 };

export interface Week {
  /** Monday (YYYY-MM-DD, hospital time). */
  start: string;
  /** Sunday. */
  end: string;
  window: store.ActivityWindow;
}

/** The week starting on `monday`, as instants in `zone` (DST-safe: local midnights). */
export function weekOf(monday: string, zone: string): Week {
  return {
    start: monday,
    end: addDays(monday, 6),
    window: {
      from: localInstant(monday, MIDNIGHT, zone),
      until: localInstant(addDays(monday, 7), MIDNIGHT, zone),
    },
  };
}

/** The Monday on or before a local date. */
export function mondayOf(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay(); // 0 = Sunday
  return addDays(date, -((weekday + 6) % 7));
}

/** The newest week whose digest is due at `at`: the one before the last Monday 06:00 passed. */
export function dueWeek(at: Date, zone: string): Week {
  const monday = mondayOf(localDate(at, zone));
  const dueFrom = localInstant(monday, { hour: ACTIVITY_REVIEW_HOUR, minute: 0, second: 0 }, zone);
  return weekOf(addDays(monday, at >= dueFrom ? -7 : -14), zone);
}

// ---- the digest -------------------------------------------------------------------------------

interface SectionSpec {
  key: ActivitySectionKey;
  title: string;
  filter: store.ActivityFilter;
}

const success = (...actions: string[]): store.ActivityFilter => ({ actions, outcome: 'success' });

/** §9.2's list, each from the audit actions that record it (`area.verb`, §2.7). */
export const SECTIONS: readonly SectionSpec[] = [
  { key: 'newGrants', title: 'New grants', filter: success('role.grant') },
  {
    key: 'extensions',
    title: 'Extensions and end-date changes',
    filter: success('grant.extend', 'grant.set-end'),
  },
  { key: 'expiries', title: 'Expiries', filter: success('grant.expire') },
  {
    key: 'reviewDecisions',
    title: 'Review decisions',
    filter: success('review.decide', 'review.decision-change'),
  },
  {
    key: 'reviewDefaults',
    title: 'Review defaults applied',
    filter: { ...success('review.apply'), detail: { key: 'byDefault', values: ['true'] } },
  },
  {
    key: 'disables',
    title: 'Disables for inactivity or no access',
    filter: { ...success('account.disable'), detail: { key: 'reason', values: ['inactive', 'noAccess'] } },
  },
  { key: 'terminations', title: 'Terminations', filter: success('account.terminate') },
  {
    key: 'failedSignIns',
    title: 'Failed sign-ins and lockouts',
    filter: { actions: ['signin.password', 'signin.mfa', 'signin.lockout'], outcome: 'failure' },
  },
  { key: 'mfaResets', title: 'MFA resets', filter: success('mfa.reset') },
  {
    key: 'passkeyChanges',
    title: 'Passkey changes',
    filter: success('passkey.register', 'passkey.remove', 'passkey.rename', 'passkey.counter-regression'),
  },
  {
    key: 'emergencyGrants',
    title: 'Emergency grants',
    filter: success('emergency.grant', 'emergency.end', 'emergency.acknowledge'),
  },
  {
    key: 'departureReports',
    title: 'Departure reports',
    filter: success('departure.report', 'departure.confirm', 'departure.dismiss', 'departure.forward'),
  },
  {
    key: 'policyChanges',
    title: 'Policy changes',
    filter: success('policy.change', 'org.tier-change', 'org.contract-end-change', 'aup.publish'),
  },
  {
    key: 'policyAcceptances',
    title: 'Acceptable Use Policy acceptances and overdue',
    filter: success('aup.accept', 'aup.overdue'),
  },
];

/** A link into the audit trail (Administration → Audit trail) with its filters. */
export function auditLink(filters: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
  return `${adminRoutes.audit}?${query.toString()}`;
}

/** An event's details as text: each fact but the ids, in the order recorded. */
function detailText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .filter(([key, value]) => value !== null && value !== '' && !/id$/i.test(key))
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

async function sectionOf(db: Db | Tx, week: Week, spec: SectionSpec): Promise<ActivitySection> {
  const w = week.window;
  const span = { from: w.from.toISOString(), to: w.until.toISOString() };
  const outcome = spec.filter.outcome === 'failure' ? 'failure' : undefined;
  const counts = new Map((await store.countActivity(db, w, spec.filter)).map((c) => [c.action, c.n]));
  const actions = spec.filter.actions
    .filter((action) => counts.has(action))
    .map((action) => ({
      action,
      count: counts.get(action) ?? 0,
      link: auditLink({ action, outcome, ...span }),
    }));
  const count = actions.reduce((sum, a) => sum + a.count, 0);
  const section: ActivitySection = { key: spec.key, title: spec.title, count, actions, events: [], more: 0 };
  if (spec.key === 'failedSignIns') {
    // Listed per vendor instead of event by event (a guessing attack would fill any list).
    const tally = await store.failedSignInsPerVendor(db, w, LISTED_PER_SECTION);
    section.perVendor = tally.perVendor.map((v) => ({
      ...v,
      link: auditLink({ action: 'signin', outcome: 'failure', target: v.username, ...span }),
    }));
    section.unknownUsernames = tally.unknown;
    return section;
  }
  if (count === 0) return section;
  const rows = await store.listActivity(db, w, spec.filter, LISTED_PER_SECTION);
  section.events = rows.map((r) => ({
    id: r.id,
    at: new Date(r.occurred_at).toISOString(),
    action: r.action,
    actor: r.actor_username,
    target: r.target_username,
    organization: r.organization,
    detail: detailText(r.details),
  }));
  section.more = count - section.events.length;
  if (spec.key === 'departureReports') {
    section.repeatedDismissals = (await store.repeatedDismissals(db, w, REPEATED_DISMISSALS)).map((r) => ({
      ...r,
      link: auditLink({ action: 'departure.report', actor: r.reporter }),
    }));
  }
  return section;
}

/** A week's digest from the audit trail as it stands (the sweep stores it once; it never changes). */
export async function buildDigest(db: Db | Tx, week: Week, zone: string): Promise<ActivityDigest> {
  const sections: ActivitySection[] = [];
  for (const spec of SECTIONS) sections.push(await sectionOf(db, week, spec));
  return {
    periodStart: week.start,
    periodEnd: week.end,
    zone,
    from: week.window.from.toISOString(),
    until: week.window.until.toISOString(),
    sections,
  };
}

export const digestTotal = (digest: ActivityDigest) => digest.sections.reduce((sum, s) => sum + s.count, 0);

// ---- mails A1, A2 -----------------------------------------------------------------------------

const weekLink = (site: MailSite, monday: string) =>
  `${site.publicUrl}${adminRoutes.reportActivity}?week=${monday}`;

/** A1: the week's digest is ready (to InfoSec), with its non-zero counts. */
export function digestReadyMail(site: MailSite, digest: ActivityDigest): MailContent {
  const period = periodText(digest.periodStart, digest.periodEnd);
  const counts = digest.sections.filter((s) => s.count > 0).map((s) => `- ${s.title}: ${s.count}`);
  return compose(site, 'activity-review-ready', text.readySubject(period), [
    para(`The digest of vendor-access activity for ${period} (${digest.zone}) is ready for your review.`),
    para(
      counts.length > 0 ? `In this week:\n${counts.join('\n')}` : 'No vendor-access activity was recorded.',
    ),
    linkPara('Review it and mark it reviewed with a note:', weekLink(site, digest.periodStart)),
  ]);
}

/** A2: three days on, the week is still not reviewed. */
export function digestReminderMail(site: MailSite, p: { periodStart: string; periodEnd: string }) {
  const period = periodText(p.periodStart, p.periodEnd);
  return compose(site, 'activity-review-reminder', text.reminderSubject(period), [
    para(`Nobody has marked the weekly access activity review for ${period} reviewed yet.`),
    linkPara('Review it and mark it reviewed with a note:', weekLink(site, p.periodStart)),
  ]);
}

// ---- the sweep steps --------------------------------------------------------------------------

/** The weeks to generate at `sweep.at`: the due one, and the ones missed since the newest stored. */
async function weeksToGenerate(sweep: Sweep): Promise<Week[]> {
  const zone = sweep.config.PORTAL_TIME_ZONE;
  const due = dueWeek(sweep.at, zone);
  const latest = await store.latestActivityWeek(sweep.db);
  if (latest !== null && latest >= due.start) return [];
  const weeks: Week[] = [due];
  if (latest === null) return weeks;
  for (let monday = addDays(due.start, -7); monday > latest && weeks.length < MAX_CATCH_UP_WEEKS;) {
    weeks.unshift(weekOf(monday, zone));
    monday = addDays(monday, -7);
  }
  return weeks;
}

/** Generates one week's digest, once: false when another sweep stored it first. */
async function generate(sweep: Sweep, tx: Tx, week: Week, announce: boolean): Promise<boolean> {
  const digest = await buildDigest(tx, week, sweep.config.PORTAL_TIME_ZONE);
  const total = digestTotal(digest);
  const stored = await store.insertActivityReview(tx, {
    periodStart: week.start,
    periodEnd: week.end,
    window: week.window,
    generatedAt: sweep.at,
    digest,
    total,
  });
  if (!stored) return false;
  await recordAudit(tx, {
    action: 'activity-review.generate',
    outcome: 'success',
    actor: SYSTEM_ACTOR,
    details: { periodStart: week.start, periodEnd: week.end, events: total, catchUp: !announce },
  });
  if (announce) {
    const mail = digestReadyMail(siteOf(sweep), digest);
    await sendNoticeOnce(
      tx,
      { kind: NOTICE_KIND, subjectId: week.start, milestone: 'ready' },
      sweep.at,
      (await infosecEmails(tx, sweep.config)).map((to) => outboxRow(to, mail)),
    );
  }
  return true;
}

/** (13) Monday 06:00: the previous week's digest (and missed ones after downtime), mail A1. */
export const activityReviewDigest: GovernanceStep = {
  name: 'activity-review',
  run: async (sweep) => {
    const outcome: StepOutcome = { done: 0, failed: 0 };
    const weeks = await weeksToGenerate(sweep);
    for (const [index, week] of weeks.entries()) {
      const newest = index === weeks.length - 1;
      try {
        if (await sweep.db.transaction().execute((tx) => generate(sweep, tx, week, newest)))
          outcome.done += 1;
      } catch (error) {
        outcome.failed += 1;
        sweep.log.error({ err: error, step: 'activity-review' }, 'governance sweep: a weekly digest failed');
      }
    }
    return outcome;
  },
  due: async (sweep, until) => {
    const zone = sweep.config.PORTAL_TIME_ZONE;
    const latest = await store.latestActivityWeek(sweep.db);
    const due = dueWeek(until, zone);
    return latest === null || latest < due.start ? 1 : 0;
  },
};

/** A2, once per week, 3 days after the digest while nobody marked it reviewed. */
export const activityReviewReminders: GovernanceStep = {
  name: 'activity-review-reminders',
  run: (sweep) => {
    const cutoff = new Date(sweep.at.getTime() - REMINDER_AFTER_MS);
    return eachRow<{ period_start: string }>(
      sweep,
      'activity-review-reminders',
      (after, limit) =>
        store.unreviewedAnnounced(sweep.db, NOTICE_KIND, cutoff, after?.period_start ?? null, limit),
      async (tx, row) => {
        const week = await store.lockActivityReview(tx, row.period_start);
        if (!week || week.reviewed_at !== null) return false;
        const mail = digestReminderMail(siteOf(sweep), {
          periodStart: week.period_start,
          periodEnd: week.period_end,
        });
        return sendNoticeOnce(
          tx,
          { kind: NOTICE_KIND, subjectId: week.period_start, milestone: 'reminder' },
          sweep.at,
          (await infosecEmails(tx, sweep.config)).map((to) => outboxRow(to, mail)),
        );
      },
    );
  },
};
