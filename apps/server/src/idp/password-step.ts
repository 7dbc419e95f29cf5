import { randomBytes } from 'node:crypto';
import type { AppContext } from '../platform/app-context';
import type { Account } from '../platform/db-schema';
import { findAccountByUsername } from '../store/accounts';
import { hashPassword, verifyPassword } from '../identity/passwords';
import { claimAttempt, lockKey, releaseAttempt } from '../identity/lockout';
import { recordSignInFailure } from '../identity/sign-in-failure';
import { passwordInDirectory, passwordMatches } from '../identity/directory-password';
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

/**
 * Whether `password` is the account's. Every attempt costs the same whoever it names: an unknown
 * username is verified against a dummy hash; and with the hospital's directory (a vendor's password
 * is a bind there, far quicker than argon2id here, or far slower on a distant one), every attempt
 * runs both kinds of check side by side, its own and a stand-in for the other (a dummy argon2id
 * verify, or the directory look-up and bind of an account that is not there), so the answer's time
 * does not tell a vendor from an employee or an unknown username. A directory that does not answer
 * the stand-in changes no verdict, but is reported: a refusal then says what a vendor's would.
 */
async function passwordVerdict(
  ctx: AppContext,
  account: Account | undefined,
  password: string,
): Promise<{ matches: boolean; directoryAnswered: boolean }> {
  const inDirectory = account !== undefined && passwordInDirectory(ctx, account);
  const own = account
    ? passwordMatches(ctx, account, password)
    : dummyPasswordHash().then((hash) => verifyPassword(hash, password));
  if (ctx.identityStore.kind !== 'ldap') return { matches: await own, directoryAnswered: true };
  const standIn = inDirectory
    ? dummyPasswordHash().then((hash) => verifyPassword(hash, password))
    : ctx.identityStore.rehearsePasswordCheck(password);
  const [matches, directoryAnswered] = await Promise.all([
    own,
    standIn.then(
      () => true,
      (error: unknown) => !(error instanceof DirectoryUnavailableError),
    ),
  ]);
  return { matches, directoryAnswered };
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
  let directoryAnswered: boolean;
  try {
    ({ matches: passwordOk, directoryAnswered } = await passwordVerdict(ctx, account, input.password));
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
  // While the directory does not answer, a vendor hears that sign-in is unavailable (below its
  // check); anyone else who does not pass hears the same, not the usual refusal, so the answer does
  // not tell a vendor's username from others either. (Their attempt still counts: their verdict
  // is known.)
  if (locked) return { ok: false, message: signInMessages.locked };
  return { ok: false, message: directoryAnswered ? signInMessages.generic : signInMessages.unavailable };
}
