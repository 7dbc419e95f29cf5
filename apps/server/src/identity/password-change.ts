import type { AppContext } from '../platform/app-context';
import { AppError } from '../platform/app-error';
import type { Tx } from '../platform/db';
import type { Account } from '../platform/db-schema';
import * as accounts from '../store/accounts';
import { useUpResetCodes } from '../store/codes';
import * as sessions from '../store/sessions';
import { recordAudit } from './audit';
import { mailSite, passwordChangedMail } from './mail-templates';
import { enqueueMail } from './outbox';
import { hashPassword, verifyPassword } from './passwords';
import { passwordPolicy, passwordProblems } from './password-policy';

/** How many earlier passwords a new one must differ from (PRODUCT.md, "Change password"). */
export const PASSWORD_HISTORY_SIZE = 5;
export const PASSWORD_REUSED_MESSAGE = `Must differ from your last ${PASSWORD_HISTORY_SIZE} passwords`;

/**
 * Checks a new password for an account against the policy `password-requirements` returns and
 * against its last passwords, then hashes it. Runs before the transaction that stores it: hashing
 * and the history's comparisons are slow on purpose, and no connection should wait on them.
 * Refuses with 400 and every unmet rule's message.
 */
export async function preparePassword(
  ctx: AppContext,
  account: Pick<Account, 'id' | 'username' | 'given_name' | 'family_name' | 'email' | 'password_hash'>,
  newPassword: string,
): Promise<string> {
  const problems = passwordProblems(newPassword, passwordPolicy(ctx.config, account.username, account));
  if (problems.length > 0) throw AppError.many('badRequest', problems);
  const earlier = [
    account.password_hash,
    ...(await accounts.recentPasswordHashes(ctx.db, account.id, PASSWORD_HISTORY_SIZE)),
  ];
  for (const hash of new Set(earlier)) {
    if (hash && (await verifyPassword(hash, newPassword))) {
      throw new AppError('badRequest', PASSWORD_REUSED_MESSAGE);
    }
  }
  return hashPassword(newPassword);
}

/**
 * Stores a prepared password in the caller's transaction: sets the hash when the account is
 * still active, adds it to the history (keeping the last few), ends the account's sessions but
 * `keepSessionIdHash`, uses up its unused reset codes, mails the owner and records the audit
 * event. Returns false, changing nothing, when the account is no longer active.
 */
export async function storePassword(
  tx: Tx,
  ctx: AppContext,
  change: {
    account: Pick<Account, 'id' | 'username' | 'given_name' | 'email'>;
    passwordHash: string;
    /** The session that made the change and stays signed in (profile change); none for a reset. */
    keepSessionIdHash?: string;
    action: 'password.change' | 'password.reset';
    actor: { id: string | null; username: string } | null;
    clientAddress: string;
  },
): Promise<boolean> {
  const { account } = change;
  if (!(await accounts.setPasswordIfActive(tx, account.id, change.passwordHash))) return false;
  await accounts.addToPasswordHistory(tx, account.id, change.passwordHash, PASSWORD_HISTORY_SIZE);
  await sessions.revokeAllOf(tx, account.id, change.keepSessionIdHash);
  await useUpResetCodes(tx, account.id);
  await enqueueMail(tx, {
    to: account.email,
    ...passwordChangedMail(mailSite(ctx), {
      firstName: account.given_name,
      username: account.username,
      reset: change.action === 'password.reset',
    }),
  });
  await recordAudit(tx, {
    action: change.action,
    outcome: 'success',
    actor: change.actor,
    target: { id: account.id, username: account.username },
    clientAddress: change.clientAddress,
  });
  return true;
}
