import type { AccountSummary } from '@pra/contracts';
import type { Account } from '../platform/db-schema';

/** An account as the activation and recovery flows show it. */
export function accountSummary(account: Account): AccountSummary {
  return {
    username: account.username,
    givenName: account.given_name,
    familyName: account.family_name,
    email: account.email,
  };
}
