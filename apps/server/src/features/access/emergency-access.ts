import { approvalMessages, emergencyMessages, type EmergencyAccessResponse } from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import type { Account } from '../../platform/db-schema';
import {
  approversOf,
  infosecEmails,
  INFOSEC_NAME,
  mailDate,
  uniqueRecipients,
} from '../../identity/approval-routing';
import { auditingDenials, recordAudit } from '../../identity/audit';
import { ACKNOWLEDGE_DAYS } from '../../identity/governance/emergency';
import {
  emergencyGrantedBrmMail,
  emergencyGrantedInfosecMail,
  emergencyGrantedVendorMail,
  mailTime,
} from '../../identity/governance/emergency-mails';
import { readPolicyBook } from '../../identity/governance/sweep';
import { mailSite } from '../../identity/mail-templates';
import { enqueueMail } from '../../identity/outbox';
import { grantRole } from '../../identity/roles';
import { tiersOf } from '../../store/approval-routing';
import { insertEmergencyGrant } from '../../store/emergencies';
import { lockedRoleOrganizations } from '../../store/grants';
import { insertAccessRequest } from '../../store/requests';
import { organizationOfRole, resolveScope } from './scope';

const HOUR_MS = 3_600_000;
const personName = (a: Pick<Account, 'given_name' | 'family_name' | 'username'>) =>
  `${a.given_name} ${a.family_name}`.trim() || a.username;

/**
 * POST /api/brm/users/emergency-access (GOVERNANCE.md §10.1, admins): gives a vendor one
 * organization for 1 to the tier's maximum hours (72 by default) with a ticket number, in one
 * transaction under the account row's lock: the grant (a role_grants row marked as an emergency,
 * ending at the hour), its record, the follow-up item "Emergency Access" for the organization's
 * BRMs (acknowledge within 5 days), `emergency.grant`, and the mails to the vendor, the BRMs and
 * InfoSec. Refused when the vendor already holds the organization ("{Name} already has access to
 * {Org}"): an emergency never extends an ordinary grant; an approval committed meanwhile wins the
 * same way (grantRole answers false).
 */
export async function grantEmergencyAccess(o: {
  ctx: AppContext;
  actor: Account;
  targetUsername: string;
  name: string;
  hours: number;
  ticket: string;
  reason: string;
  clientAddress: string;
}): Promise<EmergencyAccessResponse> {
  const { ctx, actor } = o;
  const zone = ctx.config.PORTAL_TIME_ZONE;
  const action = 'emergency.grant';
  return auditingDenials(ctx.db, (deny) =>
    ctx.db.transaction().execute(async (tx) => {
      const { beneficiary } = await resolveScope(tx, actor, o.targetUsername, {
        deny,
        action,
        clientAddress: o.clientAddress,
      });
      const org = await organizationOfRole(tx, o.name);
      if (!org.isActive) throw new AppError('conflict', approvalMessages.organizationInactive(org.name));
      const tier = (await tiersOf(tx, [org.id])).get(org.id) ?? 'standard';
      const max = (await readPolicyBook(tx))[tier].emergencyMaxHours;
      if (o.hours > max) throw new AppError('badRequest', emergencyMessages.hours(max));
      // The account row's lock: a grant, a removal and an approval of this person take turns.
      const held = await lockedRoleOrganizations(tx, beneficiary.id);
      const name = personName(beneficiary);
      if (held.includes(org.id))
        throw new AppError('conflict', emergencyMessages.alreadyHasAccess(name, org.name));
      const usable =
        beneficiary.status === 'active' ||
        (beneficiary.status === 'disabled' && beneficiary.disabled_reason === 'noAccess');
      if (!usable) throw new AppError('conflict', emergencyMessages.accountNotActive(name));

      const at = ctx.clock.now();
      const endsAt = new Date(at.getTime() + o.hours * HOUR_MS);
      const acknowledgeBy = new Date(at.getTime() + ACKNOWLEDGE_DAYS * 24 * HOUR_MS);
      const { requestId, itemIds } = await insertAccessRequest(tx, {
        type: 'Emergency Access',
        status: 'pending',
        requesterId: actor.id,
        beneficiary,
        comment: o.reason ? `Ticket ${o.ticket}: ${o.reason}` : `Ticket ${o.ticket}`,
        organizationIds: [org.id],
        decidedBy: null,
        now: at,
        deadlines: new Map([[org.id, acknowledgeBy]]),
      });
      const emergencyId = await insertEmergencyGrant(tx, {
        accountId: beneficiary.id,
        organizationId: org.id,
        requestId,
        ticket: o.ticket,
        reason: o.reason,
        hours: o.hours,
        grantedBy: actor.id,
        at,
        endsAt,
      });
      const who = { id: actor.id, username: actor.username };
      const target = { id: beneficiary.id, username: beneficiary.username };
      const made = await grantRole(tx, {
        actor: who,
        account: target,
        organizationId: org.id,
        requestItemId: itemIds.get(org.id) ?? null,
        clientAddress: o.clientAddress,
        at,
        expiresAt: endsAt,
        emergencyId,
      });
      if (!made) throw new AppError('conflict', emergencyMessages.alreadyHasAccess(name, org.name));
      await recordAudit(tx, {
        action,
        outcome: 'success',
        actor: who,
        target,
        organizationId: org.id,
        clientAddress: o.clientAddress,
        details: {
          emergencyId,
          ticket: o.ticket,
          hours: o.hours,
          endsAt: endsAt.toISOString(),
          reason: o.reason,
        },
      });

      const site = mailSite(ctx);
      const endsAtText = mailTime(endsAt, zone);
      const facts = { vendor: name, organization: org.name, ticket: o.ticket, endsAt: endsAtText };
      await enqueueMail(tx, {
        to: beneficiary.email,
        ...emergencyGrantedVendorMail(site, { ...facts, firstName: beneficiary.given_name }),
      });
      const a = await approversOf(
        tx,
        ctx.config,
        { organizationId: org.id, createdAt: at, forwarded: false },
        at,
      );
      const brmMail = emergencyGrantedBrmMail(site, {
        ...facts,
        acknowledgeBy: mailDate(acknowledgeBy, zone),
      });
      for (const r of uniqueRecipients(a.primary, a.delegates))
        await enqueueMail(tx, { to: r.email, ...brmMail });
      const infosecMail = emergencyGrantedInfosecMail(site, { ...facts, grantedBy: personName(actor) });
      const infosec = (await infosecEmails(tx, ctx.config)).map((email) => ({ email, name: INFOSEC_NAME }));
      for (const r of uniqueRecipients(infosec)) await enqueueMail(tx, { to: r.email, ...infosecMail });
      return { success: true, endsAt: endsAt.toISOString(), endsAtText };
    }),
  );
}
