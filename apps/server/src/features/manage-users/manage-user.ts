import { manageUsersMessages as m } from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import { isAdmin } from '../../identity/account-kinds';
import { setAccountStatus } from '../../identity/accounts';
import { mailActivationCode } from '../../identity/activation-mail';
import { auditingDenials, recordAudit } from '../../identity/audit';
import { canManageVendor, deciderOf } from '../../identity/deciders';
import { sendResetLink } from '../../identity/reset-link';
import { organizationsOfAccount } from '../../identity/roles';
import { revokeAccountSessions } from '../../http/session';
import type { Tx } from '../../platform/db';
import type { Account } from '../../platform/db-schema';
import { findVendorForUpdate } from './queries';

interface ManagerCall {
  ctx: AppContext;
  actor: Account;
  username: string;
  clientAddress: string;
}

/**
 * Runs `work` on the vendor named `username` inside one transaction, once the server has checked
 * that the actor manages it: unknown (or not a vendor) is 404; a vendor outside the actor's
 * organizations is 403 and audited as `denied`, and nothing changes.
 */
async function onManagedVendor(
  call: ManagerCall,
  action: string,
  work: (tx: Tx, target: Account, who: { actor: { id: string; username: string } }) => Promise<void>,
): Promise<void> {
  const { ctx, actor, clientAddress } = call;
  const by = { id: actor.id, username: actor.username };
  await auditingDenials(ctx.db, (deny) =>
    ctx.db.transaction().execute(async (tx) => {
      const target = await findVendorForUpdate(tx, call.username);
      if (!target || target.status === 'terminated') throw new AppError('notFound', m.userNotFound);
      const organizations = await organizationsOfAccount(tx, target.id);
      const decider = await deciderOf(tx, actor);
      if (
        !canManageVendor(
          decider,
          organizations.map((o) => o.id),
        )
      ) {
        deny({
          action,
          actor: by,
          target: { id: target.id, username: target.username },
          clientAddress,
          details: { reason: 'notYourOrganization' },
        });
        throw new AppError('forbidden', m.notYourVendor);
      }
      await work(tx, target, { actor: by });
    }),
  );
}

/** Enables or disables a vendor; disabling ends its sessions at once (sign-in refuses it too). */
export async function setUserEnabled(call: ManagerCall & { enable: boolean }): Promise<void> {
  const action = call.enable ? 'user.enable' : 'user.disable';
  await onManagedVendor(call, action, async (tx, target, { actor }) => {
    if (target.status === 'pendingActivation') throw new AppError('conflict', m.pendingCannotToggle);
    const status = call.enable ? 'active' : 'disabled';
    if (target.status !== status) await setAccountStatus(tx, target.id, status);
    if (!call.enable) await revokeAccountSessions(tx, target.id);
    await recordAudit(tx, {
      action,
      outcome: 'success',
      actor,
      target: { id: target.id, username: target.username },
      clientAddress: call.clientAddress,
      details: { previousStatus: target.status },
    });
  });
}

/** Mails an active vendor a single-use password-reset link ("Send One-Time Password E-mail"). */
export async function sendOtpEmail(call: ManagerCall & { email: string }): Promise<void> {
  await onManagedVendor(call, 'user.send-otp-email', async (tx, target, { actor }) => {
    if (target.email.toLowerCase() !== call.email.toLowerCase()) {
      throw new AppError('badRequest', m.emailMismatch);
    }
    if (target.status !== 'active') throw new AppError('conflict', m.notActive);
    await sendResetLink(tx, call.ctx, {
      account: target,
      actor,
      clientAddress: call.clientAddress,
      action: 'user.send-otp-email',
    });
  });
}

/** Replaces a pending account's activation code (the old one stops working) and mails the new one. */
export async function resetActivationCode(call: ManagerCall): Promise<void> {
  if (!isAdmin(call.actor)) {
    // Spec section 6: only admins reset activation codes; a BRM's attempt is audited.
    await recordAudit(call.ctx.db, {
      action: 'user.reset-activation-code',
      outcome: 'denied',
      actor: { id: call.actor.id, username: call.actor.username },
      target: { id: null, username: call.username },
      clientAddress: call.clientAddress,
      details: { reason: 'notAdmin' },
    });
    throw new AppError('forbidden', m.notAdmin);
  }
  await onManagedVendor(call, 'user.reset-activation-code', async (tx, target, { actor }) => {
    if (target.status !== 'pendingActivation') throw new AppError('conflict', m.notPending);
    await mailActivationCode(tx, call.ctx, target);
    await recordAudit(tx, {
      action: 'user.reset-activation-code',
      outcome: 'success',
      actor,
      target: { id: target.id, username: target.username },
      clientAddress: call.clientAddress,
    });
  });
}
