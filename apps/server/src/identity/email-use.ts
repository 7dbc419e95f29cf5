import type { EmailInUseResult } from '@pra/contracts';
import { sql } from 'kysely';
import type { Db, Tx } from '../platform/db';

// Shared by registration (the email check, the registration itself) and approvals (the re-check
// before an account is created): who already uses an email address, and the lock serializing both.

/** Whether an email is free, on a non-terminated account, or on a pending registration. */
export async function emailUse(db: Db | Tx, email: string): Promise<EmailInUseResult> {
  const folded = email.toLowerCase();
  const account = await db
    .selectFrom('accounts')
    .select('id')
    .where(sql<string>`lower(email)`, '=', folded)
    .where('status', '!=', 'terminated')
    .executeTakeFirst();
  if (account) return 'activeAccount';
  const pending = await db
    .selectFrom('requests')
    .select('id')
    .where(sql<string>`lower(email)`, '=', folded)
    .where('type', '=', 'New Account')
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return pending ? 'pendingApproval' : 'available';
}

/**
 * Serializes every registration and approval touching one email address, so the in-transaction
 * re-check of `emailUse` cannot be raced (also for BRM registrations, which no unique index covers).
 */
export async function lockEmail(tx: Tx, email: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`email:${email.toLowerCase()}`}))`.execute(tx);
}
