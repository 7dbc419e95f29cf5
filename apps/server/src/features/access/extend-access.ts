import { accessExpiryMessages } from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import type { Account } from '../../platform/db-schema';
import { endOfLocalDay, localDate } from '../../platform/local-time';
import { recordAudit } from '../../identity/audit';
import { routeToDeciders, submission } from '../../identity/deciders';
import { extensionRequestedMail } from '../../identity/governance/expiry-mails';
import { grantTerms } from '../../identity/governance/grant-terms';
import { mailSite } from '../../identity/mail-templates';
import { enqueueMail } from '../../identity/outbox';
import { lockedGrant, lockedRoleOrganizations } from '../../store/grants';
import { insertAccessRequest, pendingExtensionOrganizations } from '../../store/requests';
import { organizationOfRole } from './scope';

/**
 * POST /api/vendor/access/extend (GOVERNANCE.md §3.2, §3.7): a vendor asks its sponsor for more
 * time on a role it holds. One pending Extend Access request with one item, the new end date asked
 * for on it, audited (`extension.request`) and mailed to the organization's approvers (X4), all
 * in one transaction. Refused: an inactive organization, a grant that already ended, a pending
 * extension, a date not after the current end or past the policy's latest end.
 */
export async function extendAccess(o: {
  ctx: AppContext;
  actor: Account;
  name: string;
  requestedUntil: string;
  justification: string;
  clientAddress: string;
}): Promise<{ requestId: string }> {
  const { ctx, actor } = o;
  const zone = ctx.config.PORTAL_TIME_ZONE;
  return ctx.db.transaction().execute(async (tx) => {
    const org = await organizationOfRole(tx, o.name);
    if (!org.isActive) throw new AppError('conflict', accessExpiryMessages.organizationInactive(org.name));
    // The account row's lock: two extension requests of one vendor take turns (the second sees the first).
    await lockedRoleOrganizations(tx, actor.id);
    const grant = await lockedGrant(tx, { account_id: actor.id, organization_id: org.id });
    if (!grant) throw new AppError('conflict', accessExpiryMessages.accessEnded(org.name));
    if ((await pendingExtensionOrganizations(tx, actor.id)).has(org.id)) {
      throw new AppError('conflict', accessExpiryMessages.extensionPending);
    }
    const { now, deadlines } = await submission(tx, ctx, [org.id]);
    const currentEnd = localDate(new Date(grant.expires_at), zone);
    const { maxDate } = await grantTerms(tx, org.id, now, zone);
    if (o.requestedUntil <= currentEnd || o.requestedUntil > maxDate) {
      throw new AppError('badRequest', accessExpiryMessages.extensionDate(currentEnd, maxDate));
    }
    const { requestId, itemIds } = await insertAccessRequest(tx, {
      type: 'Extend Access',
      status: 'pending',
      requesterId: actor.id,
      beneficiary: actor,
      comment: o.justification,
      organizationIds: [org.id],
      decidedBy: null,
      now,
      deadlines,
      requestedUntil: endOfLocalDay(o.requestedUntil, zone),
    });
    const itemId = itemIds.get(org.id)!;
    const who = { id: actor.id, username: actor.username };
    await recordAudit(tx, {
      action: 'extension.request',
      outcome: 'success',
      actor: who,
      target: who,
      organizationId: org.id,
      clientAddress: o.clientAddress,
      details: { requestId, workItemId: itemId, from: currentEnd, to: o.requestedUntil },
    });
    const mail = extensionRequestedMail(mailSite(ctx), {
      vendor: `${actor.given_name} ${actor.family_name}`.trim() || actor.username,
      username: actor.username,
      organization: org.name,
      currentEnd,
      until: o.requestedUntil,
      justification: o.justification,
    });
    for (const to of await routeToDeciders(tx, ctx.config, { id: itemId, organizationId: org.id }, now)) {
      await enqueueMail(tx, { to, ...mail });
    }
    return { requestId };
  });
}
