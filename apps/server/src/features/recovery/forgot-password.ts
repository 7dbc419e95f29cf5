import {
  recoveryMessages,
  type IdentifyByCodeResponse,
  type IdentifyResponse,
  type OtpResult,
  type PushResult,
} from '@pra/contracts';
import { writeDirectoryPassword } from '../../identity/directory-password';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import type { Account } from '../../platform/db-schema';
import type { Session } from '../../http/session';
import { setSessionValue } from '../../http/session';
import { accountSummary } from '../../identity/accounts';
import { findAccountById, findAccountByUsername } from '../../store/accounts';
import { recordAudit } from '../../identity/audit';
import { claimResetCode, findCodeWithAccount } from '../../store/codes';
import { hashCode, normalizeCode } from '../../identity/codes';
import { mfaProvider } from '../../identity/mfa/provider';
import { preparePassword, storePassword } from '../../identity/password-change';
import { enforceRateLimit, hitRateLimit, type RateLimitRule } from '../../identity/rate-limit';
import {
  isRecoveryVerified,
  readRecoveryBinding,
  RECOVERY_KEY,
  RECOVERY_VERIFIED_MS,
  takeVerification,
  type RecoveryBinding,
} from '../../identity/recovery-binding';
import { sendResetLink } from '../../identity/reset-link';
import { authenticationOptions, verifyAuthentication } from '../../identity/mfa/webauthn';
import { readKeyPolicy } from '../../identity/mfa/key-policy';

/** Passcodes tried for one account in a window (recovery only; the IdP counts its own). */
export const PASSCODE_LIMIT: RateLimitRule = { limit: 5, windowSeconds: 900 };
/** Pushes sent to one account in a window: a person approves one, not a stream of them. */
export const PUSH_LIMIT: RateLimitRule = { limit: 3, windowSeconds: 900 };
/**
 * Reset mails per account within an hour. Counted only for a session bound to the account, so
 * calls the owner could not have made (unbound sessions naming it) never spend the owner's mails;
 * those count on the caller's address alone.
 */
export const RESET_MAIL_LIMIT: RateLimitRule = { limit: 3, windowSeconds: 3600 };

interface Caller {
  session: Session;
  clientAddress: string;
}

function bind(ctx: AppContext, session: Session, binding: RecoveryBinding | undefined) {
  return setSessionValue(ctx.db, session, RECOVERY_KEY, binding);
}

/**
 * The account bound to the session, if `username` names it and it is still active. Anything
 * else (not identified, another account's name, disabled since) is refused alike.
 */
export async function boundAccount(ctx: AppContext, session: Session, username: string): Promise<Account> {
  const binding = readRecoveryBinding(session);
  const account = binding ? await findAccountById(ctx.db, binding.accountId) : undefined;
  if (!account || account.status !== 'active' || account.username.toLowerCase() !== username.toLowerCase()) {
    throw new AppError('forbidden', recoveryMessages.notVerified);
  }
  return account;
}

/** identify: username and email must both match one active account; binds it to the session. */
export async function identify(
  ctx: AppContext,
  caller: Caller,
  body: { username: string; email: string },
): Promise<IdentifyResponse> {
  const account = await findAccountByUsername(ctx.db, body.username);
  const matches =
    account !== undefined &&
    account.status === 'active' &&
    account.email.toLowerCase() === body.email.toLowerCase();
  if (!account || !matches) {
    // A failed identify unbinds whatever this session identified before.
    await bind(ctx, caller.session, undefined);
    return { isAccountValid: false, isDeviceValid: false, invalidReason: recoveryMessages.noSuchAccount };
  }
  await bind(ctx, caller.session, { accountId: account.id });
  const [device, { policy, keys }] = await Promise.all([
    mfaProvider(ctx).device(account.id),
    readKeyPolicy(ctx, account.id),
  ]);
  return {
    isAccountValid: true,
    isDeviceValid: device !== null,
    ...(device ? { device: { nickname: device.nickname, canPush: device.canPush } } : {}),
    hasSecurityKey: keys > 0,
    ...(policy.kind === 'keysOnly' ? { keyRequired: true } : {}),
    account: accountSummary(account),
  };
}

/**
 * An account that must sign in with a security key or passkey (GOVERNANCE.md §7.3, §7.8): only
 * its key verifies a reset. Passcode and push are refused (audited); with no key left, the
 * sponsor's reset is the way back.
 */
async function refuseUnlessKeyMethod(ctx: AppContext, caller: Caller, account: Account, method: string) {
  const { policy, keys } = await readKeyPolicy(ctx, account.id);
  if (policy.kind !== 'keysOnly') return;
  await auditRefusal(ctx, caller, account, method, 'keyRequired');
  throw new AppError(
    'forbidden',
    keys > 0 ? recoveryMessages.keyRequired : recoveryMessages.keyRequiredNoKey,
  );
}

/** identify-by-code: a valid reset code binds its account and verifies the session at once. */
export async function identifyByCode(
  ctx: AppContext,
  caller: Caller,
  code: string,
): Promise<IdentifyByCodeResponse> {
  const invalid = (invalidReason: string, isAccountValid = false): IdentifyByCodeResponse => ({
    isAccountValid,
    isCodeValid: false,
    invalidReason,
  });
  if (normalizeCode(code).length !== 16) return invalid(recoveryMessages.codeUnknown);
  const row = await findCodeWithAccount(ctx.db, hashCode(ctx.session.secret, code));
  if (!row || row.kind !== 'reset') return invalid(recoveryMessages.codeUnknown);
  const isAccountValid = row.status === 'active';
  if (row.used_at) return invalid(recoveryMessages.codeUsed, isAccountValid);
  if (row.expired) return invalid(recoveryMessages.codeExpired, isAccountValid);
  if (!isAccountValid) return invalid(recoveryMessages.codeAccountInactive);
  const { codeId, kind: _kind, used_at: _used, expired: _expired, ...account } = row;
  // The link alone does not verify an account that must use a key: it leads to the key check.
  const { policy, keys } = await readKeyPolicy(ctx, account.id);
  const keyRequired = policy.kind === 'keysOnly';
  await bind(ctx, caller.session, {
    accountId: account.id,
    codeId,
    ...(keyRequired
      ? {}
      : { verifiedUntil: ctx.clock.now().getTime() + RECOVERY_VERIFIED_MS, method: 'resetLink' }),
  });
  return {
    isAccountValid: true,
    isCodeValid: true,
    account: accountSummary(account),
    ...(keyRequired ? { keyRequired: true, hasSecurityKey: keys > 0 } : {}),
  };
}

/** Marks the session verified for the bound account (keeping the link's code to use up), and audits it. */
async function markVerified(ctx: AppContext, caller: Caller, account: Account, method: string) {
  const codeId = readRecoveryBinding(caller.session)?.codeId;
  await bind(ctx, caller.session, {
    accountId: account.id,
    verifiedUntil: ctx.clock.now().getTime() + RECOVERY_VERIFIED_MS,
    method,
    ...(codeId ? { codeId } : {}),
  });
  await recordAudit(ctx.db, {
    action: 'password.recovery-verify',
    outcome: 'success',
    actor: null,
    target: { id: account.id, username: account.username },
    clientAddress: caller.clientAddress,
    details: { method },
  });
}

async function auditRefusal(
  ctx: AppContext,
  caller: Caller,
  account: Account,
  method: string,
  result: string,
) {
  await recordAudit(ctx.db, {
    action: 'password.recovery-verify',
    outcome: result === 'tooManyAttempts' ? 'denied' : 'failure',
    actor: null,
    target: { id: account.id, username: account.username },
    clientAddress: caller.clientAddress,
    details: { method, result },
  });
}

/** verify-otp: the bound account's passcode, at most PASSCODE_LIMIT tries per window. */
export async function verifyOtp(
  ctx: AppContext,
  caller: Caller,
  body: { username: string; otp: string },
): Promise<OtpResult> {
  const account = await boundAccount(ctx, caller.session, body.username);
  await refuseUnlessKeyMethod(ctx, caller, account, 'passcode');
  const limit = await hitRateLimit(ctx.db, `recovery-otp:${account.id}`, PASSCODE_LIMIT);
  const result: OtpResult = limit.allowed
    ? await mfaProvider(ctx).verifyPasscode(account.id, body.otp)
    : 'tooManyAttempts';
  if (result === 'success') await markVerified(ctx, caller, account, 'passcode');
  else await auditRefusal(ctx, caller, account, 'passcode', result);
  return result;
}

/** ping-push: a push to the bound account's authenticator, waiting for the answer. */
export async function pingPush(
  ctx: AppContext,
  caller: Caller,
  username: string,
  signal: AbortSignal,
): Promise<PushResult> {
  const account = await boundAccount(ctx, caller.session, username);
  await refuseUnlessKeyMethod(ctx, caller, account, 'push');
  const limit = await hitRateLimit(ctx.db, `recovery-push:${account.id}`, PUSH_LIMIT);
  const result: PushResult = limit.allowed
    ? await mfaProvider(ctx).push({
        account,
        purpose: 'reset',
        clientAddress: caller.clientAddress,
        signal,
      })
    : 'tooManyAttempts';
  if (signal.aborted) return 'timeout'; // nobody is listening any more; the push was withdrawn
  if (result === 'success') await markVerified(ctx, caller, account, 'push');
  else await auditRefusal(ctx, caller, account, 'push', result);
  return result;
}

/** send-reset-email: a single-use reset link to the bound account's own address. */
export async function sendResetEmail(ctx: AppContext, caller: Caller, username: string): Promise<void> {
  const account = await boundAccount(ctx, caller.session, username);
  // A key-only account's link leads to the key check; without a key it leads nowhere.
  const { policy, keys } = await readKeyPolicy(ctx, account.id);
  if (policy.kind === 'keysOnly' && keys === 0) {
    await auditRefusal(ctx, caller, account, 'resetLink', 'keyRequired');
    throw new AppError('forbidden', recoveryMessages.keyRequiredNoKey);
  }
  await enforceRateLimit(ctx.db, `recovery-mail:${account.id}`, RESET_MAIL_LIMIT);
  await ctx.db.transaction().execute((tx) =>
    sendResetLink(tx, ctx, {
      account,
      actor: null,
      clientAddress: caller.clientAddress,
      action: 'password.reset-link',
    }),
  );
}

/**
 * set-password: only for the verified bound account, once. The verification (and the reset code
 * that gave it, if any) is taken in the same transaction that stores the password, so a second
 * call, or two at once, cannot set it again. Every session of the account ends.
 */
export async function setPassword(
  ctx: AppContext,
  caller: Caller,
  body: { username: string; newPassword: string },
): Promise<void> {
  const binding = readRecoveryBinding(caller.session);
  if (!isRecoveryVerified(binding, ctx.clock.now().getTime()))
    throw new AppError('forbidden', recoveryMessages.notVerified);
  const account = await boundAccount(ctx, caller.session, body.username);
  // Verified otherwise before the requirement held (or by a link): a key-only account needs its key.
  if (binding?.method !== 'securityKey' && (await readKeyPolicy(ctx, account.id)).policy.kind === 'keysOnly')
    throw new AppError('forbidden', recoveryMessages.notVerified);
  const passwordHash = await preparePassword(ctx, account, body.newPassword);
  // The directory first: a refusal or an outage leaves the verification and the reset code unused.
  await writeDirectoryPassword(ctx, account, body.newPassword);
  await ctx.db.transaction().execute(async (tx) => {
    const taken = await takeVerification(tx, caller.session.idHash, account.id, ctx.clock.now().getTime());
    if (!taken) throw new AppError('forbidden', recoveryMessages.notVerified);
    if (binding?.codeId && !(await claimResetCode(tx, binding.codeId))) {
      throw new AppError('conflict', recoveryMessages.codeUsed);
    }
    const stored = await storePassword(tx, ctx, {
      account,
      passwordHash,
      action: 'password.reset',
      actor: { id: account.id, username: account.username },
      clientAddress: caller.clientAddress,
    });
    if (!stored) throw new AppError('forbidden', recoveryMessages.notVerified);
  });
  caller.session.data = { ...caller.session.data };
  delete caller.session.data[RECOVERY_KEY];
}

/** Forgot Password with a security key: options for the bound account's keys (null: it has none). */
export async function recoveryKeyOptions(ctx: AppContext, caller: Caller, username: string) {
  const account = await boundAccount(ctx, caller.session, username);
  return authenticationOptions(ctx, caller.session, account.id, 'reset');
}

/** The bound account's key verifies the session, like a passcode, PASSCODE_LIMIT tries per window. */
export async function recoveryKeyVerify(
  ctx: AppContext,
  caller: Caller,
  body: { username: string; credential: unknown },
): Promise<{ result: 'success' | 'failure' | 'tooManyAttempts'; message?: string }> {
  const account = await boundAccount(ctx, caller.session, body.username);
  const limit = await hitRateLimit(ctx.db, `recovery-otp:${account.id}`, PASSCODE_LIMIT);
  if (!limit.allowed) {
    await auditRefusal(ctx, caller, account, 'securityKey', 'tooManyAttempts');
    return { result: 'tooManyAttempts' };
  }
  const outcome = await verifyAuthentication(ctx, caller.session, {
    account,
    response: body.credential as never,
    purpose: 'reset',
    clientAddress: caller.clientAddress,
  });
  if (!outcome.ok) {
    await auditRefusal(ctx, caller, account, 'securityKey', outcome.reason);
    return { result: 'failure', message: outcome.message };
  }
  await markVerified(ctx, caller, account, 'securityKey');
  return { result: 'success' };
}
