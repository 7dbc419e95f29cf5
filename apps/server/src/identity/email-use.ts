import type { EmailInUseResult } from '@pra/contracts';
import type { Db, Tx } from '../platform/db';
import * as accounts from '../store/accounts';
import { pendingRegistrationHasEmail } from '../store/requests';

// Shared by registration (the email check, the registration itself) and approvals (the re-check
// before an account is created): who already uses an email address, and the lock serializing both.

/** Whether an email is free, on a non-terminated account, or on a pending registration. */
export async function emailUse(db: Db | Tx, email: string): Promise<EmailInUseResult> {
  const folded = email.toLowerCase();
  if (await accounts.emailInUse(db, folded)) return 'activeAccount';
  return (await pendingRegistrationHasEmail(db, folded)) ? 'pendingApproval' : 'available';
}

/**
 * Serializes every registration and approval touching one email address, so the in-transaction
 * re-check of `emailUse` cannot be raced (also for BRM registrations, which no unique index covers).
 */
export async function lockEmail(tx: Tx, email: string): Promise<void> {
  await accounts.lockEmail(tx, email);
}
