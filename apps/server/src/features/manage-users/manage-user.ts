import { manageUsersMessages as m } from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import { setAccountStatus } from '../../store/accounts';
import { mailActivationCode } from '../../identity/activation-mail';
import { auditingDenials, recordAudit } from '../../identity/audit';
import { sendResetLink } from '../../identity/reset-link';
import { organizationsOfAccount } from '../../store/grants';
import * as sessions from '../../store/sessions';
import type { Tx } from '../../platform/db';
import type { Account } from '../../platform/db-schema';
import { loadActor, principalOf, type Actor } from '../../policies/actor';
import * as vendorPolicy from '../../policies/vendor';
import { findVendorForUpdate } from '../../store/accounts';
import { restartInactivityClock } from '../../store/dormancy';
import { resetSignInMethods as resetFactors } from '../../identity/mfa/reset-sign-in-methods';
import { requiresPhishingResistant } from '../../store/webauthn';

interface ManagerCall {
  ctx: AppContext;
  actor: Account;
  username: string;
  clientAddress: string;
}

/** What `work` learns about the vendor beside its row: who acts, for what organizations. */
interface ManagedVendor {
  actor: { id: string; username: string };
  /** The actor as the policies see it. */
  by: Actor;
  /** The vendor as the vendor policy sees it. */
  vendor: vendorPolicy.VendorItem;
  /** Notes a refusal for the audit (outcome `denied`) just before `work` throws it. */
  deny: (reason: string) => void;
}

/**
 * Runs `work` on the vendor named `username` inside one transaction, once the server has checked
 * that the actor manages it. A vendor outside the actor's organizations answers exactly as an
 * unknown username (404, so a BRM learns no usernames outside its organizations); the refusal is
 * audited as `denied` and nothing changes.
 */
async function onManagedVendor(
  call: ManagerCall,
  action: string,
  work: (tx: Tx, target: Account, vendor: ManagedVendor) => Promise<void>,
): Promise<void> {
  const { ctx, actor, clientAddress } = call;
  const who = { id: actor.id, username: actor.username };
  await auditingDenials(ctx.db, (deny) =>
    ctx.db.transaction().execute(async (tx) => {
      const found = await findVendorForUpdate(tx, call.username);
      const target = found && found.status !== 'terminated' ? found : undefined;
      const organizationIds = target ? (await organizationsOfAccount(tx, target.id)).map((o) => o.id) : [];
      const by = await loadActor(tx, actor);
      const vendor = { status: target?.status ?? 'terminated', organizationIds };
      const refuse = (reason: string) =>
        deny({
          action,
          actor: who,
          target: target
            ? { id: target.id, username: target.username }
            : { id: null, username: call.username },
          clientAddress,
          details: { reason },
        });
      if (!target || !vendorPolicy.can(by, 'manage', vendor)) {
        refuse(target ? 'notYourVendor' : 'notFound');
        throw new AppError('notFound', m.userNotFound);
      }
      await work(tx, target, { actor: who, by, vendor, deny: refuse });
    }),
  );
}

/**
 * Enables or disables a vendor; disabling ends its sessions at once (sign-in refuses it too). A
 * BRM disables only a vendor all of whose organizations it manages: disabling would end the other
 * organizations' access as well (Terminate Vendors removes its own organizations' instead).
 */
export async function setUserEnabled(call: ManagerCall & { enable: boolean }): Promise<void> {
  const action = call.enable ? 'user.enable' : 'user.disable';
  await onManagedVendor(call, action, async (tx, target, { actor, by, vendor, deny }) => {
    if (!call.enable && !vendorPolicy.can(by, 'disable', vendor)) {
      deny('otherOrganizations');
      throw new AppError('forbidden', m.disableShared);
    }
    if (target.status === 'pendingActivation') throw new AppError('conflict', m.pendingCannotToggle);
    const status = call.enable ? 'active' : 'disabled';
    if (target.status !== status) await setAccountStatus(tx, target.id, status);
    // Enabling restarts the inactivity clock (GOVERNANCE.md §6.3).
    if (call.enable && target.status !== status)
      await restartInactivityClock(tx, target.id, call.ctx.clock.now());
    if (!call.enable) await sessions.revokeAllOf(tx, target.id);
    await recordAudit(tx, {
      action,
      outcome: 'success',
      actor,
      target: { id: target.id, username: target.username },
      clientAddress: call.clientAddress,
      details: {
        previousStatus: target.status,
        ...(target.disabled_reason ? { reason: target.disabled_reason } : {}),
      },
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
  if (!vendorPolicy.resetsActivationCodes(principalOf(call.actor))) {
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

/**
 * Reset Sign-in Methods (GOVERNANCE.md §7.3): an admin removes an active vendor's security keys,
 * passkeys and authenticator apps after checking who asks. For an account that must sign in
 * phishing-resistantly the identity check is required and recorded, and a new activation code
 * replaces plain re-enrolment. Audited as `mfa.reset` (by, identityVerified) and mailed (W4).
 */
export async function resetSignInMethods(call: ManagerCall & { identityVerified: boolean }): Promise<void> {
  if (!vendorPolicy.resetsActivationCodes(principalOf(call.actor))) {
    await recordAudit(call.ctx.db, {
      action: 'mfa.reset',
      outcome: 'denied',
      actor: { id: call.actor.id, username: call.actor.username },
      target: { id: null, username: call.username },
      clientAddress: call.clientAddress,
      details: { reason: 'notAdmin' },
    });
    throw new AppError('forbidden', m.notAdminSignInReset);
  }
  await onManagedVendor(call, 'mfa.reset', async (tx, target, { actor, deny }) => {
    if (target.status !== 'active') throw new AppError('conflict', m.notActive);
    if (!call.identityVerified && (await requiresPhishingResistant(tx, target.id, call.ctx.clock.now()))) {
      deny('identityNotVerified');
      throw new AppError('badRequest', m.identityCheckRequired);
    }
    const outcome = await resetFactors(tx, call.ctx, target);
    await recordAudit(tx, {
      action: 'mfa.reset',
      outcome: 'success',
      actor,
      target: { id: target.id, username: target.username },
      clientAddress: call.clientAddress,
      details: { by: actor.username, identityVerified: call.identityVerified, ...outcome },
    });
  });
}
