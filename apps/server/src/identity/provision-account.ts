import type { AppContext } from '../http/context';
import type { Tx } from '../platform/db';
import type { Account } from '../platform/db-schema';
import { recordAudit } from './audit';
import { createCode } from './codes';
import { accountApprovedMail } from './mail-templates';
import { enqueueMail } from './outbox';
import { generateUsername } from './username';

export interface ApprovedRegistration {
  requestId: string;
  firstName: string;
  lastName: string;
  email: string;
  jobTitle: string;
  manager: string;
}

export interface ApprovedGrant {
  organizationId: string;
  organizationName: string;
  requestItemId: string;
}

/**
 * The one code path from an approved `New Account` request to an account: used by approvals and
 * by a BRM or admin registering a vendor. Creates the account pending activation with a generated
 * username, grants the approved organizations' roles, creates the activation code and queues the
 * mail carrying it. Runs inside the caller's transaction.
 */
export async function provisionAccount(
  tx: Tx,
  ctx: AppContext,
  options: {
    actor: Account;
    registration: ApprovedRegistration;
    grants: ApprovedGrant[];
    clientAddress: string;
  },
): Promise<{ accountId: string; username: string }> {
  const { actor, registration: r, grants, clientAddress } = options;
  const username = await generateUsername(tx, r.firstName, r.lastName);
  const { id: accountId } = await tx
    .insertInto('accounts')
    .values({
      username,
      given_name: r.firstName,
      family_name: r.lastName,
      email: r.email,
      job_title: r.jobTitle,
      manager: r.manager,
      type: 'vendor',
      status: 'pendingActivation',
      password_hash: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await tx.updateTable('requests').set({ beneficiary_id: accountId }).where('id', '=', r.requestId).execute();
  const by = { id: actor.id, username: actor.username };
  const target = { id: accountId, username };
  await recordAudit(tx, {
    action: 'account.create',
    outcome: 'success',
    actor: by,
    target,
    clientAddress,
    details: { requestId: r.requestId },
  });
  for (const grant of grants) {
    await tx
      .insertInto('role_grants')
      .values({
        account_id: accountId,
        organization_id: grant.organizationId,
        granted_by: actor.id,
        request_item_id: grant.requestItemId,
      })
      .onConflict((oc) => oc.columns(['account_id', 'organization_id']).doNothing())
      .execute();
    await recordAudit(tx, {
      action: 'role.grant',
      outcome: 'success',
      actor: by,
      target,
      organizationId: grant.organizationId,
      clientAddress,
      details: { requestItemId: grant.requestItemId },
    });
  }
  const days = ctx.config.ACTIVATION_CODE_TTL_DAYS;
  const code = await createCode(tx, {
    pepper: ctx.session.secret,
    accountId,
    kind: 'activation',
    ttlSeconds: days * 86_400,
  });
  await enqueueMail(tx, {
    to: r.email,
    ...accountApprovedMail(mailSite(ctx), { firstName: r.firstName, username, code, expiresInDays: days }),
  });
  return { accountId, username };
}

/** Hospital name and portal address for the mail templates. */
export function mailSite(ctx: AppContext) {
  return { hospitalName: ctx.config.HOSPITAL_NAME, publicUrl: ctx.config.publicUrl };
}
