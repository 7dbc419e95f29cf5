import type { AppContext } from '../platform/app-context';
import type { Tx } from '../platform/db';
import type { Account } from '../platform/db-schema';
import { insertPendingVendor } from '../store/accounts';
import { setBeneficiary } from '../store/requests';
import { recordAudit } from './audit';
import { mailActivationCode } from './activation-mail';
import type { OnBehalf } from './mail-templates';
import { grantRole } from './roles';
import { chooseGrantEnd } from './governance/grant-terms';
import { generateUsername } from './username';

interface ApprovedRegistration {
  requestId: string;
  firstName: string;
  lastName: string;
  email: string;
  jobTitle: string;
  manager: string;
}

interface ApprovedGrant {
  organizationId: string;
  requestItemId: string;
  /** The end date the approver set (YYYY-MM-DD); the organization's default when absent. */
  endsOn?: string | null | undefined;
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
    /** A delegate's approval on a BRM's behalf (the activation mail says so). */
    approvedBy?: OnBehalf;
  },
): Promise<void> {
  const { actor, registration: r, grants, clientAddress } = options;
  const username = await generateUsername(tx, r.firstName, r.lastName);
  const accountId = await insertPendingVendor(tx, {
    username,
    givenName: r.firstName,
    familyName: r.lastName,
    email: r.email,
    jobTitle: r.jobTitle,
    manager: r.manager,
  });
  await setBeneficiary(tx, r.requestId, accountId);
  const by = { id: actor.id, username: actor.username };
  const account = { id: accountId, username };
  await recordAudit(tx, {
    action: 'account.create',
    outcome: 'success',
    actor: by,
    target: account,
    clientAddress,
    details: { requestId: r.requestId },
  });
  const at = ctx.clock.now();
  for (const grant of grants) {
    await grantRole(tx, {
      at,
      expiresAt: await chooseGrantEnd(
        tx,
        grant.organizationId,
        at,
        ctx.config.PORTAL_TIME_ZONE,
        grant.endsOn,
      ),
      actor: by,
      account,
      organizationId: grant.organizationId,
      requestItemId: grant.requestItemId,
      clientAddress,
    });
  }
  await mailActivationCode(
    tx,
    ctx,
    { id: accountId, username, given_name: r.firstName, email: r.email },
    options.approvedBy ?? null,
  );
}
