import { accessMessages, emailDomain, type AccessChangeResponse } from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import type { Tx } from '../../platform/db';
import type { Account } from '../../platform/db-schema';
import { auditingDenials, recordAudit } from '../../identity/audit';
import { routeToDeciders, submission } from '../../identity/deciders';
import { accessAwaitingDecisionMail, accessChangedMail, mailSite } from '../../identity/mail-templates';
import { enqueueMail } from '../../identity/outbox';
import { grantRole, leavesNoRole, removeRole } from '../../identity/roles';
import { chooseGrantEnd } from '../../identity/governance/grant-terms';
import { lockedRoleOrganizations } from '../../store/grants';
import { activeOrganizationsForDomain } from '../../store/organizations';
import { grantsOutsideDomain } from '../../policies/organization';
import { insertAccessRequest, pendingItems } from '../../store/requests';
import { manages, organizationsOfRoles, resolveScope, type AccessScope, type Deny } from './scope';

type Operation = 'Add' | 'Remove';
type Org = { id: string; name: string };

interface ChangeOptions {
  ctx: AppContext;
  actor: Account;
  operation: Operation;
  selectedNames: string[];
  justification: string;
  beneficiaryUsername: string;
  beneficiaryEmail?: string | undefined;
  clientAddress: string;
}

/**
 * POST /api/vendor/access/request (Add) and /api/vendor/access/current/cancel (Remove). A vendor's
 * own change becomes one pending request with an item per role, mailed to each organization's
 * BRMs; a BRM or admin managing another user changes the roles at once, only in organizations it
 * manages. Roles already held (Add), not held (Remove) or already pending fail alone; everything
 * else is checked first and refuses the whole call. Nobody's last organization is removed here.
 */
export async function changeAccess(o: ChangeOptions): Promise<AccessChangeResponse> {
  const { ctx, actor, operation } = o;
  const action = operation === 'Add' ? 'access.add' : 'access.remove';
  return auditingDenials(ctx.db, (deny) =>
    ctx.db.transaction().execute(async (tx) => {
      const scope = await resolveScope(tx, actor, o.beneficiaryUsername, {
        deny,
        action,
        clientAddress: o.clientAddress,
      });
      const { beneficiary } = scope;
      if (o.beneficiaryEmail && o.beneficiaryEmail.toLowerCase() !== beneficiary.email.toLowerCase()) {
        throw new AppError('badRequest', accessMessages.emailMismatch);
      }
      const orgs = await organizationsOfRoles(tx, o.selectedNames);
      checkManaged(scope, orgs, deny, action, o.clientAddress);
      if (operation === 'Add') await checkAddable(tx, scope, orgs, deny, action, o.clientAddress);
      const held = await lockedRoleOrganizations(tx, beneficiary.id);
      // Pending additions and removals (a pending extension neither blocks nor counts as a removal).
      const pending = new Set(
        (await pendingItems(tx, beneficiary.id))
          .filter((i) => i.operation !== 'Extend')
          .map((i) => i.organizationId),
      );
      const errors: string[] = [];
      const chosen: Org[] = [];
      for (const org of orgs) {
        const isHeld = held.includes(org.id);
        if (operation === 'Remove' && !isHeld) {
          throw new AppError('badRequest', accessMessages.notHeld(org.name));
        }
        if (operation === 'Add' && isHeld) errors.push(org.name);
        else if (pending.has(org.id)) errors.push(org.name);
        else chosen.push(org);
      }
      if (chosen.length === 0) {
        const messages = orgs.map((org) =>
          held.includes(org.id) && operation === 'Add'
            ? accessMessages.alreadyHeld(org.name)
            : accessMessages.alreadyPending(org.name),
        );
        throw AppError.many('conflict', messages);
      }
      if (operation === 'Remove') {
        // A vendor's pending removals count as gone: together they may not take the last role.
        const removing = [...chosen.map((org) => org.id), ...(scope.isSelf ? pending : [])];
        if (leavesNoRole(held, removing)) {
          throw new AppError(
            'conflict',
            scope.isSelf ? accessMessages.lastRoleVendor : accessMessages.lastRoleManager,
          );
        }
      }
      await (scope.isSelf
        ? requestChange(tx, ctx, scope, operation, chosen, o)
        : applyChange(tx, ctx, scope, operation, chosen, o));
      return { errors, successes: chosen.map((org) => org.name) };
    }),
  );
}

/** Roles offered to the beneficiary: its email domain's organizations, or any for an admin; a refusal is audited. */
async function checkAddable(
  tx: Tx,
  scope: AccessScope,
  orgs: Org[],
  deny: Deny,
  action: string,
  clientAddress: string,
): Promise<void> {
  if (!scope.isSelf && grantsOutsideDomain(scope.by)) return;
  const domain = new Set(
    (await activeOrganizationsForDomain(tx, emailDomain(scope.beneficiary.email))).map((org) => org.id),
  );
  const foreign = orgs.filter((org) => !domain.has(org.id));
  if (foreign.length > 0) {
    refuse(
      { scope, deny, action, clientAddress },
      foreign,
      'otherDomain',
      'badRequest',
      accessMessages.otherDomain,
    );
  }
}

/** A BRM changes roles only in organizations it manages; a refusal is audited. */
function checkManaged(
  scope: AccessScope,
  orgs: Org[],
  deny: Deny,
  action: string,
  clientAddress: string,
): void {
  if (scope.isSelf) return;
  const outside = orgs.filter((org) => !manages(scope, org.id));
  if (outside.length > 0) {
    refuse(
      { scope, deny, action, clientAddress },
      outside,
      'notYourOrganization',
      'forbidden',
      accessMessages.notManaged,
    );
  }
}

/** Audits a refusal for `refused` organizations (as denied) and throws one message for each. */
function refuse(
  call: { scope: AccessScope; deny: Deny; action: string; clientAddress: string },
  refused: Org[],
  reason: string,
  code: 'badRequest' | 'forbidden',
  message: (organizationName: string) => string,
): never {
  const { scope } = call;
  call.deny({
    action: call.action,
    actor: { id: scope.actor.id, username: scope.actor.username },
    target: { id: scope.beneficiary.id, username: scope.beneficiary.username },
    organizationId: refused[0]!.id,
    clientAddress: call.clientAddress,
    details: { reason, organizations: refused.map((org) => org.name).join(', ') },
  });
  throw AppError.many(
    code,
    refused.map((org) => message(org.name)),
  );
}

/** A vendor's own change: one pending request, its audit event and the BRMs' mails. */
async function requestChange(
  tx: Tx,
  ctx: AppContext,
  scope: AccessScope,
  operation: Operation,
  orgs: Org[],
  o: ChangeOptions,
): Promise<void> {
  const { beneficiary } = scope;
  const type = operation === 'Add' ? 'Add Access' : 'Remove Access';
  const { now, deadlines } = await submission(
    tx,
    ctx,
    orgs.map((org) => org.id),
  );
  const { requestId, itemIds } = await insertAccessRequest(tx, {
    type,
    status: 'pending',
    requesterId: beneficiary.id,
    beneficiary,
    comment: o.justification,
    organizationIds: orgs.map((org) => org.id),
    decidedBy: null,
    now,
    deadlines,
  });
  const site = mailSite(ctx);
  for (const org of orgs) {
    await recordAudit(tx, {
      action: operation === 'Add' ? 'access.request' : 'access.requestRemoval',
      outcome: 'success',
      actor: { id: beneficiary.id, username: beneficiary.username },
      target: { id: beneficiary.id, username: beneficiary.username },
      organizationId: org.id,
      clientAddress: o.clientAddress,
      details: { requestId, workItemId: itemIds.get(org.id) ?? null },
    });
    const mail = accessAwaitingDecisionMail(site, {
      firstName: beneficiary.given_name,
      lastName: beneficiary.family_name,
      username: beneficiary.username,
      organization: org.name,
      type,
      justification: o.justification,
    });
    const deciders = await routeToDeciders(
      tx,
      ctx.config,
      { id: itemIds.get(org.id)!, organizationId: org.id },
      now,
    );
    for (const to of deciders) await enqueueMail(tx, { to, ...mail });
  }
}

/** A BRM's or admin's change for another user: recorded as an approved request, carried out at once. */
async function applyChange(
  tx: Tx,
  ctx: AppContext,
  scope: AccessScope,
  operation: Operation,
  orgs: Org[],
  o: ChangeOptions,
): Promise<void> {
  const { actor, beneficiary } = scope;
  const { itemIds } = await insertAccessRequest(tx, {
    type: operation === 'Add' ? 'Add Access' : 'Remove Access',
    status: 'approved',
    requesterId: actor.id,
    beneficiary,
    comment: o.justification,
    organizationIds: orgs.map((org) => org.id),
    decidedBy: actor.id,
    ...(await submission(
      tx,
      ctx,
      orgs.map((org) => org.id),
    )),
  });
  const at = ctx.clock.now();
  for (const org of orgs) {
    const change = {
      actor: { id: actor.id, username: actor.username },
      account: { id: beneficiary.id, username: beneficiary.username },
      organizationId: org.id,
      requestItemId: itemIds.get(org.id)!,
      clientAddress: o.clientAddress,
      at,
    };
    await (operation === 'Add'
      ? grantRole(tx, {
          ...change,
          expiresAt: await chooseGrantEnd(tx, org.id, at, ctx.config.PORTAL_TIME_ZONE),
        })
      : removeRole(tx, change));
  }
  const names = orgs.map((org) => org.name);
  await enqueueMail(tx, {
    to: beneficiary.email,
    ...accessChangedMail(mailSite(ctx), {
      firstName: beneficiary.given_name,
      added: operation === 'Add' ? names : [],
      removed: operation === 'Remove' ? names : [],
      by: `${actor.given_name} ${actor.family_name}`.trim() || actor.username,
      justification: o.justification,
    }),
  });
}
