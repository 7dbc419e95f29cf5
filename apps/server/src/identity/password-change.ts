import { sql } from 'kysely';
import type { AppContext } from '../platform/app-context';
import { AppError } from '../platform/app-error';
import type { Db, Tx } from '../platform/db';
import type { Account } from '../platform/db-schema';
import { recordAudit } from './audit';
import { mailSite, passwordChangedMail } from './mail-templates';
import { enqueueMail } from './outbox';
import { hashPassword, verifyPassword } from './passwords';
import { passwordPolicy, passwordProblems } from './password-policy';

/** How many earlier passwords a new one must differ from (PRODUCT.md, "Change password"). */
export const PASSWORD_HISTORY_SIZE = 5;
export const PASSWORD_REUSED_MESSAGE = `Must differ from your last ${PASSWORD_HISTORY_SIZE} passwords`;

/** The hashes of the account's last passwords, newest first (the current one included). */
async function recentPasswordHashes(db: Db | Tx, accountId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('password_history')
    .select('password_hash')
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .limit(PASSWORD_HISTORY_SIZE)
    .execute();
  return rows.map((row) => row.password_hash);
}

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
  const earlier = [account.password_hash, ...(await recentPasswordHashes(ctx.db, account.id))];
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
  const updated = await tx
    .updateTable('accounts')
    .set({
      password_hash: change.passwordHash,
      password_changed_at: sql<Date>`now()`,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', account.id)
    .where('status', '=', 'active')
    .returning('id')
    .executeTakeFirst();
  if (!updated) return false;
  await tx
    .insertInto('password_history')
    .values({ account_id: account.id, password_hash: change.passwordHash })
    .execute();
  await tx
    .deleteFrom('password_history')
    .where('account_id', '=', account.id)
    .where(
      'id',
      'not in',
      tx
        .selectFrom('password_history')
        .select('id')
        .where('account_id', '=', account.id)
        .orderBy('created_at', 'desc')
        .limit(PASSWORD_HISTORY_SIZE),
    )
    .execute();
  let sessions = tx
    .updateTable('sessions')
    .set({ revoked_at: sql<Date>`now()` })
    .where('account_id', '=', account.id)
    .where('revoked_at', 'is', null);
  if (change.keepSessionIdHash) sessions = sessions.where('id_hash', '!=', change.keepSessionIdHash);
  await sessions.execute();
  await tx
    .updateTable('codes')
    .set({ used_at: sql<Date>`now()` })
    .where('account_id', '=', account.id)
    .where('kind', '=', 'reset')
    .where('used_at', 'is', null)
    .execute();
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
