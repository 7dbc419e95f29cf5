import type { AppContext } from '../platform/app-context';
import { AppError } from '../platform/app-error';
import type { Account } from '../platform/db-schema';
import { DirectoryUnavailableError, PasswordRefusedError } from '../platform/directory/identity-store';
import { IIQ_UNAVAILABLE } from './maintenance';
import { verifyPassword } from './passwords';

/** Whether the account's password lives in the hospital's directory (IDENTITY_STORE=ldap, vendors). */
export function passwordInDirectory(
  ctx: Pick<AppContext, 'identityStore'>,
  account: Pick<Account, 'type'>,
): boolean {
  return ctx.identityStore.kind === 'ldap' && account.type === 'vendor';
}

/**
 * Whether `password` is the account's: a bind as the account to the directory when its password
 * lives there, else argon2id against the portal's hash. A directory that does not answer throws
 * DirectoryUnavailableError (the caller answers 503, counting no failed attempt).
 */
export async function passwordMatches(
  ctx: Pick<AppContext, 'identityStore'>,
  account: Pick<Account, 'type' | 'username' | 'password_hash'>,
  password: string,
): Promise<boolean> {
  if (passwordInDirectory(ctx, account)) return ctx.identityStore.checkPassword(account.username, password);
  return verifyPassword(account.password_hash, password);
}

/** The spec's unavailable answer for a directory that does not answer now. */
export function directoryUnavailable(): AppError {
  return new AppError('serviceUnavailable', IIQ_UNAVAILABLE);
}

/**
 * Writes a new password where the vendor signs in, inside the request and before the portal's
 * transaction (activation, Change Password, Forgot Password's set-password, which the BRM's
 * One-Time Password mail leads to): the account is made sure of in the directory, then its
 * password set. The clear password goes nowhere else (no outbox row, no log line). The directory's
 * policy refusal answers 400 in its words; a directory that does not answer, 503 with the spec's
 * message, and the caller's transaction has not run, so nothing (activation code, reset code,
 * re-authentication mark) is used up. Nothing to do for the built-in store.
 */
export async function writeDirectoryPassword(
  ctx: Pick<AppContext, 'identityStore'>,
  account: Pick<Account, 'type' | 'username' | 'given_name' | 'family_name' | 'email'>,
  password: string,
): Promise<void> {
  if (!passwordInDirectory(ctx, account)) return;
  try {
    await ctx.identityStore.ensureAccount({
      username: account.username,
      givenName: account.given_name,
      familyName: account.family_name,
      email: account.email,
    });
    await ctx.identityStore.setPassword(account.username, password);
  } catch (error) {
    if (error instanceof PasswordRefusedError) throw new AppError('badRequest', error.message);
    if (error instanceof DirectoryUnavailableError) throw directoryUnavailable();
    // Refused for another reason (rights, schema): the operator's to fix; the person may try later.
    throw Object.assign(directoryUnavailable(), { cause: error });
  }
}
