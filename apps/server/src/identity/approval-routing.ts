import { routes, type GovernanceSettings } from '@pra/contracts';
import type { Config } from '../config';
import type { Db, Tx } from '../platform/db';
import { activeAdminEmails } from '../store/accounts';
import { activeDelegatesOf, brmsOf, tiersOf, type Tier } from '../store/approval-routing';
import { addDays, endOfLocalDay, localDate } from '../platform/local-time';
import { readPolicyBook } from './governance/sweep';
import { compose, linkPara, para, type MailContent, type MailSite } from './mail-templates';

// Approval routing (GOVERNANCE.md §5): each request item's deadline from its organization's risk
// tier, who its approvers are at a moment (primary BRMs and their delegates; after a forward the
// backup BRMs, or InfoSec), and the mails. The sweeper's step is approval-routing-sweep.ts.

const DAY_MS = 86_400_000;

/** A tier's request rows (§2.3, §5.4): deadline, reminder and forward days after submission. */
export type RoutingPolicy = Pick<
  GovernanceSettings,
  'requestDecisionDays' | 'approverReminderDays' | 'forwardDay'
>;

/** The earliest any milestone of the policies falls (the sweeper looks no further back for reminders). */
export function earliestMilestoneDays(policies: Record<Tier, RoutingPolicy>): number {
  return Math.min(...Object.values(policies).flatMap((p) => [...p.approverReminderDays, p.forwardDay]));
}

/** 23:59:59 of the day `days` after `from` in the hospital's zone (deadlines round up, §2.2). */
export function endOfDayAfter(from: Date, days: number, timeZone: string): Date {
  return endOfLocalDay(addDays(localDate(from, timeZone), days), timeZone);
}

/** A date as mails show it, in the hospital's zone ("March 1, 2027"). */
export function mailDate(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone }).format(at);
}

/** Each organization's decision deadline for items submitted at `at`, from its tier's policy. */
export async function itemDeadlines(
  db: Db | Tx,
  organizationIds: readonly string[],
  at: Date,
  timeZone: string,
): Promise<Map<string, Date>> {
  if (organizationIds.length === 0) return new Map();
  const [tiers, policies] = await Promise.all([tiersOf(db, organizationIds), readPolicyBook(db)]);
  return new Map(
    organizationIds.map((id) => [
      id,
      endOfDayAfter(at, policies[tiers.get(id) ?? 'standard'].requestDecisionDays, timeZone),
    ]),
  );
}

/**
 * The milestones of an item (reminders in order, then the forward), as instants after its creation.
 * A policy with more than two reminder days numbers them remind-1, remind-2, ...
 */
export function milestonesOf(policy: RoutingPolicy, createdAt: Date): { milestone: string; at: Date }[] {
  const at = (days: number) => new Date(createdAt.getTime() + days * DAY_MS);
  return [
    ...[...policy.approverReminderDays]
      .sort((x, y) => x - y)
      .map((days, i) => ({ milestone: `remind-${i + 1}`, at: at(days) })),
    { milestone: 'forward', at: at(policy.forwardDay) },
  ];
}

/** The Information Security team's addresses: its shared mailbox, or every active admin. */
export async function infosecEmails(db: Db | Tx, config: Pick<Config, 'INFOSEC_EMAIL'>): Promise<string[]> {
  return config.INFOSEC_EMAIL ? [config.INFOSEC_EMAIL] : activeAdminEmails(db);
}

export const INFOSEC_NAME = 'Information Security team';

export interface Recipient {
  email: string;
  name: string;
}

const personName = (p: { given_name: string; family_name: string; username: string }) =>
  `${p.given_name} ${p.family_name}`.trim() || p.username;

/**
 * Who must hear about an item at `now`: its organization's active primary BRMs (InfoSec when there
 * is none), after a forward also its backup BRMs (InfoSec when there is none), and the delegates
 * of any of them whose delegation covers the item (one level).
 */
export async function approversOf(
  db: Db | Tx,
  config: Pick<Config, 'INFOSEC_EMAIL'>,
  item: { organizationId: string; createdAt: Date; forwarded: boolean },
  now: Date,
): Promise<{ primary: Recipient[]; forwardedTo: Recipient[]; delegates: Recipient[] }> {
  const infosec = async () =>
    (await infosecEmails(db, config)).map((email) => ({ email, name: INFOSEC_NAME }));
  const primaries = await brmsOf(db, item.organizationId, 'primary');
  const backups = item.forwarded ? await brmsOf(db, item.organizationId, 'backup') : [];
  const primary =
    primaries.length > 0 ? primaries.map((p) => ({ email: p.email, name: personName(p) })) : await infosec();
  const forwardedTo = !item.forwarded
    ? []
    : backups.length > 0
      ? backups.map((p) => ({ email: p.email, name: personName(p) }))
      : primaries.length > 0
        ? await infosec()
        : [];
  const delegations = await activeDelegatesOf(
    db,
    [...primaries, ...backups].map((p) => p.id),
    now,
    item.createdAt,
  );
  const delegates: Recipient[] = [];
  for (const d of delegations) {
    if (d.delegate_id === null) delegates.push(...(await infosec()));
    else if (d.status === 'active' && d.email) {
      delegates.push({ email: d.email, name: `${d.given_name ?? ''} ${d.family_name ?? ''}`.trim() });
    }
  }
  return { primary, forwardedTo, delegates };
}

/** Every address once. */
export function uniqueRecipients(...lists: Recipient[][]): Recipient[] {
  const seen = new Map<string, Recipient>();
  for (const r of lists.flat()) if (!seen.has(r.email.toLowerCase())) seen.set(r.email.toLowerCase(), r);
  return [...seen.values()];
}

// --- mails (§5.5) ---

const approvalsLink = (site: MailSite) =>
  linkPara('Approve or deny it on the Approvals page:', `${site.publicUrl}${routes.pendingApprovals}`);

/** Q2: a reminder to the approvers who have not decided. */
export function requestReminderMail(
  site: MailSite,
  p: { vendor: string; organization: string; expires: string; forwardOn: string | null },
): MailContent {
  return compose(
    site,
    'request-reminder',
    `Reminder: ${p.vendor}'s request for ${p.organization} awaits your decision (expires ${p.expires})`,
    [
      para(`${p.vendor}'s request for ${p.organization} at ${site.hospitalName} still awaits a decision.`),
      ...(p.forwardOn
        ? [para(`If nobody decides it, it will be forwarded on ${p.forwardOn} to the backup approvers.`)]
        : []),
      para(`It expires on ${p.expires}.`),
      approvalsLink(site),
    ],
  );
}

/** Q3: a request forwarded to the backup BRMs or InfoSec. */
export function requestForwardedMail(
  site: MailSite,
  p: { vendor: string; organization: string; type: string; expires: string },
): MailContent {
  return compose(
    site,
    'request-forwarded',
    `Action required: approve or deny forwarded request by ${p.expires}`,
    [
      para(
        `The ${p.type} request of ${p.vendor} for ${p.organization} at ${site.hospitalName} was not decided in time by its business relationship managers and is forwarded to you.`,
      ),
      para(`It expires on ${p.expires}.`),
      approvalsLink(site),
    ],
  );
}

/** Q4: to the requester (or registrant), the request expired undecided. */
export function requestExpiredMail(
  site: MailSite,
  p: { firstName: string; organization: string; registration: boolean },
): MailContent {
  return compose(site, 'request-expired', `Your request for ${p.organization} has expired`, [
    para(`Hello ${p.firstName},`),
    para(
      p.registration
        ? `Your registration for privileged remote access on behalf of ${p.organization} at ${site.hospitalName} was not decided in time and has expired. You can register again.`
        : `Your request for ${p.organization} at ${site.hospitalName} was not decided in time and has expired. You can request the access again.`,
    ),
    linkPara(
      p.registration ? 'Register again here:' : 'Manage your access here:',
      `${site.publicUrl}${p.registration ? routes.newUser : routes.requestAccess}`,
    ),
  ]);
}

/** Q5: to the approvers, a request expired undecided. */
export function requestExpiredApproversMail(
  site: MailSite,
  p: { vendor: string; organization: string; type: string; expires: string },
): MailContent {
  return compose(site, 'request-expired-approvers', `A request for ${p.organization} has expired`, [
    para(
      `The ${p.type} request of ${p.vendor} for ${p.organization} at ${site.hospitalName} was not decided by ${p.expires} and has expired.`,
    ),
  ]);
}

/** Q7: a delegation starts (to the delegate and the delegator). */
export function delegationStartedMail(
  site: MailSite,
  p: { delegator: string; from: string; until: string },
): MailContent {
  return compose(
    site,
    'delegation-started',
    `${p.delegator} asked you to handle their approvals from ${p.from} to ${p.until}`,
    [
      para(
        `${p.delegator} is away and asked you to handle their approvals at ${site.hospitalName} from ${p.from} to ${p.until}.`,
      ),
      linkPara(
        'Their requests appear on your Approvals page:',
        `${site.publicUrl}${routes.pendingApprovals}`,
      ),
    ],
  );
}

/** Q7: a delegation ended (to the delegate and the delegator). */
export function delegationEndedMail(
  site: MailSite,
  p: { delegator: string; delegate: string; why: string },
): MailContent {
  return compose(site, 'delegation-ended', 'Your delegation has ended', [
    para(`The delegation of ${p.delegator}'s approvals to ${p.delegate} has ended: ${p.why}.`),
    para(`New and pending requests go to ${p.delegator} again.`),
  ]);
}
