import { randomBytes } from 'node:crypto';
import type { AppContext } from '../platform/app-context';
import { findAccountByUsername } from '../store/accounts';
import { hashPassword, verifyPassword } from '../identity/passwords';
import { claimAttempt, lockKey, releaseAttempt } from '../identity/lockout';
import { recordSignInFailure } from '../identity/sign-in-failure';
import { passwordMatches } from '../identity/directory-password';
import { DirectoryUnavailableError } from '../platform/directory/identity-store';

export const signInMessages = {
  /** One message for every refusal, so it never tells which part was wrong. */
  generic: 'The username or password is incorrect, or the account cannot sign in.',
  locked: 'Too many failed sign-in attempts. Please try again later.',
  badPasscode: 'The passcode is not valid. Please try again.',
  unavailable: 'Sign-in is unavailable right now. Please try again in a few minutes.',
} as const;

/** A hash of a random password: unknown usernames are verified against it to take the same time. */
let dummyHash: Promise<string> | null = null;
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(24).toString('base64url'));
  return dummyHash;
}

export type PasswordOutcome = { ok: true; accountId: string } | { ok: false; message: string };

/**
 * The password step: argon2id verification, only `active` accounts pass. Every attempt is
 * counted before the password is checked (lockout.ts), against the client address and the
 * account, known or not, so both answer alike and concurrent guesses cannot outrun the limit.
 * Never records the password.
 */
export async function checkPassword(
  ctx: AppContext,
  input: { username: string; password: string; clientAddress: string },
  /** What the caller does with a passing account, run alongside giving its attempt back. */
  onPass: (accountId: string) => Promise<void> = async () => {},
): Promise<PasswordOutcome> {
  const username = input.username.trim();
  // The account is looked up while the address's count is taken (its key needs the account).
  const found = findAccountByUsername(ctx.db, username);
  const claim = await claimAttempt(ctx.db, ctx.config, {
    lockKey: found.then((account) => lockKey(account ?? null, username)),
    clientAddress: input.clientAddress,
  });
  const account = await found;
  if (!claim) return { ok: false, message: signInMessages.locked };

  let passwordOk: boolean;
  try {
    passwordOk = account
      ? await passwordMatches(ctx, account, input.password)
      : await verifyPassword(await dummyPasswordHash(), input.password);
  } catch (error) {
    if (!(error instanceof DirectoryUnavailableError)) throw error;
    // The directory does not answer: no verdict, so the attempt is given back, not counted.
    await releaseAttempt(ctx.db, claim);
    return { ok: false, message: signInMessages.unavailable };
  }
  if (account && passwordOk && account.status === 'active') {
    await Promise.all([releaseAttempt(ctx.db, claim), onPass(account.id)]);
    return { ok: true, accountId: account.id };
  }

  const reason = !account ? 'unknownUser' : passwordOk ? 'accountNotActive' : 'wrongPassword';
  const { locked } = await recordSignInFailure(ctx, claim, {
    account: account ?? null,
    action: 'signin.password',
    clientAddress: input.clientAddress,
    details: { reason },
  });
  return { ok: false, message: locked ? signInMessages.locked : signInMessages.generic };
}
