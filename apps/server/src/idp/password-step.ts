import { randomBytes } from 'node:crypto';
import type { AppContext } from '../http/context';
import { findAccountByUsername } from '../identity/accounts';
import { recordAudit } from '../identity/audit';
import { hashPassword, verifyPassword } from '../identity/passwords';
import { isAddressLimited, isLocked, lockKey, recordFailure, recordUnknownUserFailure } from './lockout';

export const signInMessages = {
  /** One message for every refusal, so it never tells which part was wrong. */
  generic: 'The username or password is incorrect, or the account cannot sign in.',
  locked: 'Too many failed sign-in attempts. Please try again later.',
  badPasscode: 'The passcode is not valid. Please try again.',
} as const;

/** A hash of a random password: unknown usernames are verified against it to take the same time. */
let dummyHash: Promise<string> | null = null;
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(24).toString('base64url'));
  return dummyHash;
}

export type PasswordOutcome = { ok: true; accountId: string } | { ok: false; message: string };

/**
 * The password step: argon2id verification, only `active` accounts pass, consecutive failures
 * lock the account (shared across instances), unknown usernames cost the same and are also
 * limited per client address. Never records the password or the attempted username's secrets.
 */
export async function checkPassword(
  ctx: AppContext,
  input: { username: string; password: string; clientAddress: string },
): Promise<PasswordOutcome> {
  const username = input.username.trim();
  const account = await findAccountByUsername(ctx.db, username);
  const key = lockKey(account ?? null, username);
  if ((await isLocked(ctx.db, key)) || (!account && (await isAddressLimited(ctx.db, input.clientAddress)))) {
    return { ok: false, message: signInMessages.locked };
  }

  const passwordOk = await verifyPassword(
    account?.password_hash ?? (await dummyPasswordHash()),
    input.password,
  );
  if (account && passwordOk && account.status === 'active') return { ok: true, accountId: account.id };

  const reason = !account ? 'unknownUser' : passwordOk ? 'accountNotActive' : 'wrongPassword';
  const target = account ? { id: account.id, username: account.username } : null;
  const { lockedNow } = await ctx.db.transaction().execute(async (tx) => {
    if (!account) await recordUnknownUserFailure(tx, input.clientAddress);
    const result = await recordFailure(tx, ctx.config, key);
    await recordAudit(tx, {
      action: 'signin.password',
      outcome: 'failure',
      target,
      clientAddress: input.clientAddress,
      details: { reason },
    });
    if (result.lockedNow) {
      await recordAudit(tx, {
        action: 'signin.lockout',
        outcome: 'failure',
        target,
        clientAddress: input.clientAddress,
      });
    }
    return result;
  });
  return { ok: false, message: lockedNow ? signInMessages.locked : signInMessages.generic };
}
