import type { AppContext } from '../../platform/app-context';
import type { Tx } from '../../platform/db';
import type { Account } from '../../platform/db-schema';
import { compose, linkPara, mailSite, para, type MailContent, type MailSite } from '../mail-templates';
import { enqueueMail } from '../outbox';
import { mailActivationCode } from '../activation-mail';
import * as sessions from '../../store/sessions';
import { setAccountStatus } from '../../store/accounts';
import { keyRequirement, removeAllCredentials } from '../../store/webauthn';
import { removeAllFactors } from '../../store/factors';
import { loginUrl, routes } from '@pra/contracts';

/**
 * Removes every second factor of the account (security keys and passkeys, authenticator apps,
 * paired phones) and ends its sessions, in the caller's transaction (GOVERNANCE.md §7.3, §7.8).
 * An account an organization requires to sign in phishing-resistantly goes back to pending
 * activation with a new activation code (mailed), so that whoever holds the password alone cannot
 * enrol a factor; any other account enrols again at its next sign-in and gets W4.
 * Returns whether the account is required (`newActivationCode`).
 */
export async function resetSignInMethods(
  tx: Tx,
  ctx: AppContext,
  account: Pick<Account, 'id' | 'username' | 'given_name' | 'email'>,
): Promise<{ keysRemoved: number; newActivationCode: boolean }> {
  const required = (await keyRequirement(tx, account.id, ctx.clock.now())) !== null;
  const keysRemoved = await removeAllCredentials(tx, account.id);
  await removeAllFactors(tx, account.id, ctx.clock.now());
  await sessions.revokeAllOf(tx, account.id);
  await enqueueMail(tx, { to: account.email, ...signInMethodsResetMail(mailSite(ctx), account, required) });
  if (required) {
    await setAccountStatus(tx, account.id, 'pendingActivation');
    await mailActivationCode(tx, ctx, account);
  }
  return { keysRemoved, newActivationCode: required };
}

/** W4: to the vendor, when an administrator reset its sign-in methods. */
export function signInMethodsResetMail(
  site: MailSite,
  account: Pick<Account, 'username' | 'given_name'>,
  newActivationCode: boolean,
): MailContent {
  return compose(site, 'sign-in-methods-reset', 'Your sign-in methods were reset', [
    para(`Hello ${account.given_name},`),
    para(
      `An administrator removed the security keys, passkeys and authenticator apps of your PRA account ${account.username}.`,
    ),
    newActivationCode
      ? para(
          'A separate e-mail brings a new activation code: activate your account again, then add a security key or passkey at your first sign-in.',
        )
      : para('You will set up a new sign-in method at your next sign-in.'),
    linkPara(
      'If you did not ask for this, contact the PRA support team at once. Sign in:',
      `${site.publicUrl}${loginUrl(routes.profile)}`,
    ),
  ]);
}
