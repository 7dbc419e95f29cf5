import { activationMessages } from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import { recordAudit } from '../../identity/audit';
import { accountActivatedMail, mailSite } from '../../identity/mail-templates';
import { enqueueMail } from '../../identity/outbox';
import { hashPassword } from '../../identity/passwords';
import { writeDirectoryPassword } from '../../identity/directory-password';
import { passwordPolicy, passwordProblems } from '../../identity/password-policy';
import { checkActivationCode, codeRefusal } from './activation-code';
import { setFirstPassword } from '../../store/accounts';
import { claimActivationCode } from '../../store/codes';
import { recordAcceptance, versionId } from '../../store/aup';

/** The Acceptable Use Policy the wizard's step 1 shows (GOVERNANCE.md §8.2: the first acceptance). */
export const WIZARD_AUP_VERSION = 1;

/**
 * Sets the first password of a pending account and activates it with its code. The code and the
 * account are both claimed with conditional updates, so the same code used twice at once
 * activates once.
 */
export async function activateAccount(options: {
  ctx: AppContext;
  claimCode: string;
  newPassword: string;
  clientAddress: string;
}): Promise<void> {
  const { ctx, claimCode, newPassword, clientAddress } = options;
  const pepper = ctx.session.secret;
  const check = await checkActivationCode(ctx.db, pepper, claimCode);
  if (!check.isValid) throw codeRefusal(check);
  const { account } = check;
  const problems = passwordProblems(newPassword, passwordPolicy(ctx.config, account.username, account));
  if (problems.length > 0) throw AppError.many('badRequest', problems);
  // Hashing is slow on purpose: done before the transaction so no connection waits on it.
  const passwordHash = await hashPassword(newPassword);
  // Where the vendor signs in (the hospital's directory) first: a refusal or an outage uses up no code.
  await writeDirectoryPassword(ctx, account, newPassword);

  await ctx.db.transaction().execute(async (tx) => {
    const claimed = await claimActivationCode(tx, check.codeId);
    if (!claimed) {
      const now = await checkActivationCode(tx, pepper, claimCode);
      throw now.isValid ? new Error('activation code claim failed') : codeRefusal(now);
    }
    const activated = await setFirstPassword(tx, account.id, passwordHash);
    if (!activated) throw new AppError('conflict', activationMessages.notPending);
    await enqueueMail(tx, {
      to: account.email,
      ...accountActivatedMail(mailSite(ctx), { firstName: account.given_name, username: account.username }),
    });
    // Step 1's acceptance of the policy, recorded as the account's first (version, time, address).
    const policy = await versionId(tx, WIZARD_AUP_VERSION);
    if (policy) {
      await recordAcceptance(tx, {
        accountId: account.id,
        versionId: policy,
        at: ctx.clock.now(),
        clientAddress,
      });
      await recordAudit(tx, {
        action: 'aup.accept',
        outcome: 'success',
        actor: { id: account.id, username: account.username },
        target: { id: account.id, username: account.username },
        clientAddress,
        details: { version: WIZARD_AUP_VERSION, at: 'activation' },
      });
    }
    await recordAudit(tx, {
      action: 'account.activate',
      outcome: 'success',
      actor: { id: account.id, username: account.username },
      target: { id: account.id, username: account.username },
      clientAddress,
    });
  });
}
