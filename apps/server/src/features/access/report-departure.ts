import {
  DEPARTURE_REPORTS_PER_DAY,
  departureReportMessages,
  type DepartureReportResponse,
} from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import type { Account } from '../../platform/db-schema';
import { localDate } from '../../platform/local-time';
import { approversOf, uniqueRecipients, type Recipient } from '../../identity/approval-routing';
import { auditingDenials, recordAudit } from '../../identity/audit';
import { departureReportedMail, mailTime } from '../../identity/governance/emergency-mails';
import { readPolicyBook } from '../../identity/governance/sweep';
import { mailSite } from '../../identity/mail-templates';
import { enqueueMail } from '../../identity/outbox';
import { hitRateLimit } from '../../identity/rate-limit';
import { findAccountById, suspendForDeparture } from '../../store/accounts';
import { tiersOf } from '../../store/approval-routing';
import { colleagueInOrganization, insertDepartureReport, openReportExists } from '../../store/emergencies';
import { grantDetails, organizationsOfAccount } from '../../store/grants';
import { insertAccessRequest } from '../../store/requests';
import * as sessions from '../../store/sessions';
import { organizationOfRole } from './scope';

const HOUR_MS = 3_600_000;
const DAY_SECONDS = 86_400;
const personName = (a: { given_name: string; family_name: string; username: string }) =>
  `${a.given_name} ${a.family_name}`.trim() || a.username;

/**
 * POST /api/vendor/departures (GOVERNANCE.md §10.2): a vendor reports that a colleague of the same
 * organization left. The colleague is found by email or username among the accounts holding the
 * organization's role, in one statement: a name that is unknown and one of another organization's
 * vendor get the same answer after the same work (no enumeration). At most 3 reports a day per
 * reporter (every report sent counts, found or not). In one transaction: the Departure Reported
 * request for the BRMs (due in the tier's hours: 24, high 4), the report, `departure.report`, for
 * a high-tier organization the account suspended at once (`account.disable`, reason
 * `departureReported`, sessions ended), and the urgent mail to the BRMs and the grant's sponsor.
 * A colleague already reported (still open) is not reported twice; the answer is the same.
 */
export async function reportDeparture(o: {
  ctx: AppContext;
  actor: Account;
  name: string;
  colleague: string;
  leftOn: string;
  note: string;
  clientAddress: string;
}): Promise<DepartureReportResponse> {
  const { ctx, actor } = o;
  const zone = ctx.config.PORTAL_TIME_ZONE;
  const action = 'departure.report';
  const org = await organizationOfRole(ctx.db, o.name);
  const at = ctx.clock.now();
  if (o.leftOn > localDate(at, zone)) throw new AppError('badRequest', departureReportMessages.leftInFuture);
  const limit = await hitRateLimit(ctx.db, `departure-report:${actor.id}`, {
    limit: DEPARTURE_REPORTS_PER_DAY,
    windowSeconds: DAY_SECONDS,
  });
  if (!limit.allowed) {
    throw new AppError('tooManyRequests', departureReportMessages.tooMany, limit.retryAfterSeconds);
  }
  const who = { id: actor.id, username: actor.username };
  const thanks = { success: true, message: departureReportMessages.thanks(org.name) };
  return auditingDenials(ctx.db, (deny) =>
    ctx.db.transaction().execute(async (tx) => {
      // A refusal is audited (the denial outlives the rolled-back transaction) with its reason.
      const refuse = (reason: 'notYourOrganization' | 'notFound', error: AppError): never => {
        deny({
          action,
          actor: who,
          target: null,
          organizationId: org.id,
          clientAddress: o.clientAddress,
          details: { reason },
        });
        throw error;
      };
      const own = await organizationsOfAccount(tx, actor.id);
      if (!own.some((g) => g.id === org.id)) {
        return refuse(
          'notYourOrganization',
          new AppError('forbidden', departureReportMessages.notYourOrganization(org.name)),
        );
      }
      const colleague = await colleagueInOrganization(tx, org.id, o.colleague);
      if (!colleague) {
        return refuse('notFound', new AppError('notFound', departureReportMessages.notFound(org.name)));
      }
      if (colleague.id === actor.id) throw new AppError('badRequest', departureReportMessages.self);
      if (await openReportExists(tx, colleague.id, org.id)) return thanks;

      const tier = (await tiersOf(tx, [org.id])).get(org.id) ?? 'standard';
      const policy = (await readPolicyBook(tx))[tier];
      const dueAt = new Date(at.getTime() + policy.departureDecisionHours * HOUR_MS);
      const target = { id: colleague.id, username: colleague.username };
      const { requestId } = await insertAccessRequest(tx, {
        type: 'Departure Reported',
        status: 'pending',
        requesterId: actor.id,
        beneficiary: colleague,
        comment: o.note,
        organizationIds: [org.id],
        decidedBy: null,
        now: at,
        deadlines: new Map([[org.id, dueAt]]),
      });
      const suspended = policy.departureSuspendAtOnce && (await suspendForDeparture(tx, colleague.id, at));
      const reportId = await insertDepartureReport(tx, {
        targetId: colleague.id,
        reporterId: actor.id,
        organizationId: org.id,
        requestId,
        leftOn: o.leftOn,
        note: o.note,
        suspended,
        at,
        dueAt,
      });
      await recordAudit(tx, {
        action,
        outcome: 'success',
        actor: who,
        target,
        organizationId: org.id,
        clientAddress: o.clientAddress,
        details: { reportId, leftOn: o.leftOn, dueAt: dueAt.toISOString(), suspended },
      });
      if (suspended) {
        await sessions.revokeAllOfAccounts(tx, [colleague.id]);
        await recordAudit(tx, {
          action: 'account.disable',
          outcome: 'success',
          actor: who,
          target,
          clientAddress: o.clientAddress,
          details: { reason: 'departureReported', reportId },
        });
      }
      // Urgent (§2.6): the organization's BRMs (and their delegates) and the grant's sponsor, at once.
      const a = await approversOf(
        tx,
        ctx.config,
        { organizationId: org.id, createdAt: at, forwarded: false },
        at,
      );
      const sponsorId = (await grantDetails(tx, { account_id: colleague.id, organization_id: org.id }))
        ?.sponsor_id;
      const sponsor = sponsorId ? await findAccountById(tx, sponsorId) : undefined;
      const sponsors: Recipient[] =
        sponsor && sponsor.status === 'active' ? [{ email: sponsor.email, name: personName(sponsor) }] : [];
      const mail = departureReportedMail(mailSite(ctx), {
        vendor: personName(colleague),
        organization: org.name,
        reporter: personName(actor),
        leftOn: o.leftOn,
        decideBy: mailTime(dueAt, zone),
        suspended,
      });
      for (const r of uniqueRecipients(a.primary, a.delegates, sponsors))
        await enqueueMail(tx, { to: r.email, ...mail });
      return thanks;
    }),
  );
}
