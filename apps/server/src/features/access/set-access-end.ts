import { accessMessages, type SetAccessEndResponse } from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import type { Account } from '../../platform/db-schema';
import { localDate } from '../../platform/local-time';
import { auditingDenials, recordAudit } from '../../identity/audit';
import { accessEndChangedMail } from '../../identity/governance/expiry-mails';
import { chooseGrantEnd } from '../../identity/governance/grant-terms';
import { mailSite } from '../../identity/mail-templates';
import { enqueueMail } from '../../identity/outbox';
import { lockedGrant, lockedRoleOrganizations, setGrantEnd } from '../../store/grants';
import { manages, organizationOfRole, resolveScope } from './scope';

/**
 * POST /api/brm/users/set-access-end (GOVERNANCE.md §3.2 Manage Users, §3.7): a BRM (of the
 * organization, its backup, or an admin) moves the end of a managed vendor's grant, earlier or
 * later, within the organization's policy; the changer becomes the sponsor of record. Audited
 * (`grant.set-end` with from, to and by) and mailed to the vendor (X6) in the change's transaction.
 */
export async function setAccessEnd(o: {
  ctx: AppContext;
  actor: Account;
  targetUsername: string;
  name: string;
  accessEndsOn: string;
  clientAddress: string;
}): Promise<SetAccessEndResponse> {
  const { ctx, actor } = o;
  const zone = ctx.config.PORTAL_TIME_ZONE;
  const action = 'grant.set-end';
  return auditingDenials(ctx.db, (deny) =>
    ctx.db.transaction().execute(async (tx) => {
      const scope = await resolveScope(tx, actor, o.targetUsername, {
        deny,
        action,
        clientAddress: o.clientAddress,
      });
      const { beneficiary } = scope;
      const org = await organizationOfRole(tx, o.name);
      const who = { id: actor.id, username: actor.username };
      const target = { id: beneficiary.id, username: beneficiary.username };
      if (!manages(scope, org.id)) {
        deny({
          action,
          actor: who,
          target,
          organizationId: org.id,
          clientAddress: o.clientAddress,
          details: { reason: 'notYourOrganization' },
        });
        throw new AppError('forbidden', accessMessages.notManaged(org.name));
      }
      // The account row's lock: an end-date change, a removal and an expiry of one grant take turns.
      await lockedRoleOrganizations(tx, beneficiary.id);
      const grant = await lockedGrant(tx, { account_id: beneficiary.id, organization_id: org.id });
      if (!grant) throw new AppError('conflict', accessMessages.notHeld(org.name));
      const at = ctx.clock.now();
      const end = await chooseGrantEnd(tx, org.id, at, zone, o.accessEndsOn);
      await setGrantEnd(tx, {
        account_id: beneficiary.id,
        organization_id: org.id,
        expiresAt: end,
        sponsorId: actor.id,
      });
      const from = localDate(new Date(grant.expires_at), zone);
      await recordAudit(tx, {
        action,
        outcome: 'success',
        actor: who,
        target,
        organizationId: org.id,
        clientAddress: o.clientAddress,
        details: { from, to: o.accessEndsOn, by: actor.username },
      });
      await enqueueMail(tx, {
        to: beneficiary.email,
        ...accessEndChangedMail(mailSite(ctx), {
          firstName: beneficiary.given_name,
          organization: org.name,
          endsOn: o.accessEndsOn,
          by: `${actor.given_name} ${actor.family_name}`.trim() || actor.username,
        }),
      });
      return { success: true, expiresAt: end.toISOString(), endsOn: o.accessEndsOn };
    }),
  );
}
