import { sql } from 'kysely';
import type { Db, Tx } from '../platform/db';
import type { AccountSummary } from '@pra/contracts';
import type { Account, AccountStatus } from '../platform/db-schema';

export async function findAccountByUsername(db: Db | Tx, username: string): Promise<Account | undefined> {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
}

/** An account as the activation and recovery flows show it. */
export function accountSummary(account: Account): AccountSummary {
  return {
    username: account.username,
    givenName: account.given_name,
    familyName: account.family_name,
    email: account.email,
  };
}

export async function findAccountById(db: Db | Tx, id: string): Promise<Account | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A vendor account waiting for activation (no password yet); returns its id. */
export async function insertPendingVendor(
  tx: Tx,
  a: {
    username: string;
    givenName: string;
    familyName: string;
    email: string;
    jobTitle: string;
    manager: string;
  },
): Promise<string> {
  const { id } = await tx
    .insertInto('accounts')
    .values({
      username: a.username,
      given_name: a.givenName,
      family_name: a.familyName,
      email: a.email,
      job_title: a.jobTitle,
      manager: a.manager,
      type: 'vendor',
      status: 'pendingActivation',
      password_hash: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Records the account a request created. */
export async function setBeneficiary(tx: Tx, requestId: string, accountId: string): Promise<void> {
  await tx.updateTable('requests').set({ beneficiary_id: accountId }).where('id', '=', requestId).execute();
}

/** Sets an account's status (enable, disable, terminate); the caller ends sessions where needed. */
export async function setAccountStatus(tx: Tx, accountId: string, status: AccountStatus): Promise<void> {
  await tx
    .updateTable('accounts')
    .set({ status, updated_at: sql<Date>`now()` })
    .where('id', '=', accountId)
    .execute();
}
