import type { AppContext } from '../../platform/app-context';
import { builtinMfaProvider } from './builtin-provider';

/**
 * The multi-factor service behind sign-in and account recovery. The portal asks it three things
 * and never looks behind it: which device an account has, whether a passcode is right, and
 * whether the person approves a push. The built-in provider (TOTP device plus the portal's own
 * authenticator page) implements it; a PingID provider would implement the same three calls with
 * PingID's API (device list, OTP check, authentication with push). See docs/ARCHITECTURE.md.
 */
export interface MfaProvider {
  /** A short name for logs and audit details, e.g. `builtin` or `pingid`. */
  readonly name: string;
  /** The account's device as people see it, or null when none is configured. */
  device(accountId: string): Promise<MfaDevice | null>;
  /**
   * Checks a 6-digit passcode; each code is accepted once. Attempt counting is the caller's
   * (it knows whether this is a sign-in or a recovery, and which limits apply).
   */
  verifyPasscode(accountId: string, passcode: string): Promise<'success' | 'invalidCode'>;
  /**
   * Sends a push to the account's device and waits for the answer: `success` (approved),
   * `failure` (denied, or no device can receive pushes), `timeout` (no answer in time, or the
   * signal aborted the wait: the push is then withdrawn from the device), `recentDevice` (a
   * password reset approved by a device added less than 24 hours ago: not enough by itself).
   */
  push(request: PushRequest): Promise<PushOutcome>;
}

export interface MfaDevice {
  nickname: string;
  /** Whether a push can reach the device (the built-in provider: a paired authenticator). */
  canPush: boolean;
}

export interface PushRequest {
  account: { id: string; username: string };
  /** What the person is asked to approve: a sign-in, a password reset, a change of its factors. */
  purpose: 'signin' | 'reset' | 'factor';
  /** Where the request came from, shown on the device so a person can spot a stranger's. */
  clientAddress: string;
  /** Aborted when the browser gives up (Cancel, a new attempt, a closed tab). */
  signal: AbortSignal;
}

export type PushOutcome = 'success' | 'failure' | 'timeout' | 'recentDevice';

/** The configured provider. Only the built-in one exists today. */
export function mfaProvider(ctx: AppContext): MfaProvider {
  return builtinMfaProvider(ctx);
}
