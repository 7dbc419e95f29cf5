import type { AppContext } from '../platform/app-context';
import { recordFactorChange } from '../identity/mfa/factor-change';
import { mfaProvider } from '../identity/mfa/provider';
import { hitRateLimit } from '../identity/rate-limit';
import {
  claimAttempt,
  completeAttempt,
  lockKey,
  releaseAttempt,
  type AttemptClaim,
} from '../identity/lockout';
import { signInMessages } from './password-step';
import { recordSignInFailure, type FailedAccount } from '../identity/sign-in-failure';
import { matchTotpStep } from '../identity/mfa/totp';
import { acceptDevicePasscode } from '../identity/mfa/totp-device';
import type { Account } from '../platform/db-schema';
import * as factors from '../store/factors';
import type { ConfirmedDevice } from '../store/factors';

export type MfaAccount = FailedAccount;

/**
 * `claim`: the passing attempt, for the caller to complete (`completeAttempt`) alongside its own
 * last writes; absent when the step completed it already.
 */
export type MfaOutcome = { ok: true; claim?: AttemptClaim } | { ok: false; message: string };

export type { ConfirmedDevice };

/**
 * The account the password step let through, if it is still active (it may have been disabled
 * since), with its confirmed authenticator if it has one: one round trip.
 */
export async function findActiveAccountAndDevice(
  ctx: AppContext,
  accountId: string,
): Promise<{ account: Account; device: ConfirmedDevice | undefined } | null> {
  return factors.findActiveAccountAndDevice(ctx.db, accountId);
}

/** Counts the passcode attempt before it is checked, like a password (lockout.ts). */
function claimPasscodeAttempt(ctx: AppContext, account: MfaAccount, clientAddress: string) {
  return claimAttempt(ctx.db, ctx.config, {
    lockKey: lockKey(account, account.username),
    clientAddress,
  });
}

/** A wrong passcode counts toward the same lockout as wrong passwords. */
async function refuse(
  ctx: AppContext,
  claim: AttemptClaim,
  account: MfaAccount,
  clientAddress: string,
  step: string,
): Promise<MfaOutcome> {
  const { locked } = await recordSignInFailure(ctx, claim, {
    account,
    action: 'signin.mfa',
    clientAddress,
    details: { step },
  });
  return { ok: false, message: locked ? signInMessages.locked : signInMessages.badPasscode };
}

/** Confirms a new authenticator with its first code and stores it (seed encrypted). */
export async function confirmEnrolment(
  ctx: AppContext,
  input: {
    account: MfaAccount;
    secretEncrypted: string;
    code: string;
    nickname: string;
    clientAddress: string;
  },
): Promise<MfaOutcome> {
  const claim = await claimPasscodeAttempt(ctx, input.account, input.clientAddress);
  if (!claim) return { ok: false, message: signInMessages.locked };
  const step = await matchTotpStep(ctx.encryptor.decrypt(input.secretEncrypted), input.code);
  if (step === null) return refuse(ctx, claim, input.account, input.clientAddress, 'enrol');
  await ctx.db.transaction().execute(async (tx) => {
    await completeAttempt(tx, claim);
    await factors.insertConfirmedDevice(tx, {
      accountId: input.account.id,
      nickname: input.nickname,
      secretEncrypted: input.secretEncrypted,
      lastUsedStep: step,
    });
    await recordFactorChange(tx, ctx, {
      account: input.account,
      change: 'added',
      action: 'mfa.enrol',
      kind: 'authenticator app',
      nickname: input.nickname,
      clientAddress: input.clientAddress,
    });
  });
  return { ok: true };
}

/**
 * Checks a passcode from the account's enrolled authenticator (as `findActiveAccountAndDevice`
 * read it); each time step is accepted only once. A pass leaves its claim to be completed.
 */
export async function verifyPasscode(
  ctx: AppContext,
  input: { account: MfaAccount; device: ConfirmedDevice; code: string; clientAddress: string },
): Promise<MfaOutcome> {
  const claim = await claimPasscodeAttempt(ctx, input.account, input.clientAddress);
  if (!claim) return { ok: false, message: signInMessages.locked };
  if (!(await acceptDevicePasscode(ctx, input.device, input.code))) {
    return refuse(ctx, claim, input.account, input.clientAddress, 'verify');
  }
  return { ok: true, claim };
}

/** Pushes to one account within a window at sign-in: a person approves one, not a stream. */
const SIGNIN_PUSH_LIMIT = { limit: 5, windowSeconds: 900 };

export const pushMessages = {
  denied: 'The sign-in was denied on your authenticator.',
  timeout: 'Your authenticator did not answer in time. Try again, or use a passcode.',
  tooMany: 'Too many push requests. Use a passcode, or wait a few minutes.',
  unavailable: 'No paired authenticator can receive a push. Use a passcode.',
} as const;

/**
 * A push to the account's paired authenticator (the MFA provider's), waiting for Approve or
 * Deny. A denial counts toward the lockout like a wrong passcode; no answer does not.
 */
export async function verifyPush(
  ctx: AppContext,
  input: { account: MfaAccount; clientAddress: string; signal: AbortSignal },
): Promise<MfaOutcome> {
  const limit = await hitRateLimit(ctx.db, `signin-push:${input.account.id}`, SIGNIN_PUSH_LIMIT);
  if (!limit.allowed) return { ok: false, message: pushMessages.tooMany };
  const claim = await claimPasscodeAttempt(ctx, input.account, input.clientAddress);
  if (!claim) return { ok: false, message: signInMessages.locked };
  const provider = mfaProvider(ctx);
  const device = await provider.device(input.account.id);
  if (!device?.canPush) {
    await releaseAttempt(ctx.db, claim);
    return { ok: false, message: pushMessages.unavailable };
  }
  const outcome = await provider.push({
    account: input.account,
    purpose: 'signin',
    clientAddress: input.clientAddress,
    signal: input.signal,
  });
  if (outcome === 'success') return { ok: true, claim };
  if (outcome === 'timeout') {
    await releaseAttempt(ctx.db, claim);
    return { ok: false, message: pushMessages.timeout };
  }
  const refused = await refuse(ctx, claim, input.account, input.clientAddress, 'push');
  return refused.ok || refused.message === signInMessages.locked
    ? refused
    : { ok: false, message: pushMessages.denied };
}
