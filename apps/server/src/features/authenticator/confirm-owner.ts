import { FACTOR_CONFIRMATION_MINUTES, type ConfirmOwnerResponse } from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import type { Account } from '../../platform/db-schema';
import { setSessionValue, type Session } from '../../http/session';
import { recordAudit } from '../../identity/audit';
import { checkCurrentPassword } from '../../identity/current-password';
import { mfaProvider } from '../../identity/mfa/provider';
import { enforceRateLimit, type RateLimitRule } from '../../identity/rate-limit';
import { listAuthenticators } from '../../store/factors';
import { countCredentials } from '../../store/webauthn';
import { keyConfirmationGiven } from '../../identity/mfa/webauthn';
import { FACTOR_CONFIRMATION_KEY, type FactorConfirmation } from './queries';

/** Passcodes tried for a confirmation per account in a window (the password has its own limits). */
const PASSCODE_LIMIT: RateLimitRule = { limit: 5, windowSeconds: 900 };
/** Pushes sent for confirmations per account in a window: a person approves one, not a stream. */
const PUSH_LIMIT: RateLimitRule = { limit: 3, windowSeconds: 900 };

/**
 * Whether the account has a second factor a confirmation must prove: an enrolled authenticator
 * (its passcode proves it) or a paired phone. A phone without an authenticator app (not made by
 * the built-in IdP, which enrols the app first) cannot give a passcode: such an account confirms
 * with a push to the phone, never with the password alone.
 */
export async function hasSecondFactor(ctx: AppContext, accountId: string): Promise<boolean> {
  const [device, phones] = await Promise.all([
    mfaProvider(ctx).device(accountId),
    listAuthenticators(ctx.db, accountId),
  ]);
  return device !== null || phones.length > 0;
}

/**
 * POST /api/user/authenticator/confirm: the owner, fresh, in this session, before a factor is
 * added or removed: the current password (counted toward the sign-in lockout, as change-password
 * counts it) and, when the account has a factor already, a passcode from it or a push approved on
 * a paired phone (the built-in provider fails a push when no phone is paired). A success marks the
 * session for FACTOR_CONFIRMATION_MINUTES; the next change uses the mark up.
 */
export async function confirmOwner(options: {
  ctx: AppContext;
  account: Account;
  session: Session;
  password: string;
  passcode: string | undefined;
  /** Confirm with a push to a paired phone instead of the passcode. */
  push: boolean;
  /** Aborted when the browser gives up waiting for the push (the push is then withdrawn). */
  signal: AbortSignal;
  clientAddress: string;
}): Promise<ConfirmOwnerResponse['result']> {
  const { ctx, account, session, clientAddress } = options;
  const who = { id: account.id, username: account.username };
  const audit = (outcome: 'success' | 'failure', reason?: string) =>
    recordAudit(ctx.db, {
      action: 'mfa.confirm-owner',
      outcome,
      actor: who,
      target: who,
      clientAddress,
      ...(reason ? { details: { reason } } : {}),
    });
  if (!(await checkCurrentPassword(ctx, account, options.password, clientAddress))) {
    await audit('failure', 'wrongPassword');
    return 'authenticationFailure';
  }
  const provider = mfaProvider(ctx);
  if (options.push) {
    // Only after the right password: a stranger cannot make the owner's phone ring.
    await enforceRateLimit(ctx.db, `factor-confirm-push:${account.id}`, PUSH_LIMIT);
    const outcome = await provider.push({
      account,
      purpose: 'factor',
      clientAddress,
      signal: options.signal,
    });
    if (options.signal.aborted || outcome !== 'success') {
      await audit('failure', `push-${outcome}`);
      return 'pushNotApproved';
    }
  } else if (await hasSecondFactor(ctx, account.id)) {
    await enforceRateLimit(ctx.db, `factor-confirm-passcode:${account.id}`, PASSCODE_LIMIT);
    const passcode = options.passcode;
    if (!passcode || (await provider.verifyPasscode(account.id, passcode)) !== 'success') {
      await audit('failure', passcode ? 'wrongPasscode' : 'noPasscode');
      return 'invalidCode';
    }
  }
  if (!options.push && !(await hasSecondFactor(ctx, account.id))) {
    // Security keys alone: the password is not enough; a confirmation with a key must be fresh.
    if ((await countCredentials(ctx.db, account.id)) > 0 && !keyConfirmationGiven(ctx, session)) {
      await audit('failure', 'noKeyConfirmation');
      return 'invalidCode';
    }
  }
  const confirmation: FactorConfirmation = {
    accountId: account.id,
    until: ctx.clock.now().getTime() + FACTOR_CONFIRMATION_MINUTES * 60_000,
  };
  await setSessionValue(ctx.db, session, FACTOR_CONFIRMATION_KEY, confirmation);
  await audit('success');
  return 'success';
}
