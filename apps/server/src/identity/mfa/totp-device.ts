import type { AppContext } from '../../platform/app-context';
import { claimDeviceStep, type ConfirmedDevice } from '../../store/factors';
import { matchTotpStep } from './totp';

/**
 * Checks a passcode against the device (now ±1 step) and uses its time step up: a step at or
 * before the device's last used one is refused, and the guarded update makes the step single-use
 * even when two instances check it at once. The one passcode check of the IdP and the recovery
 * flow; attempt counting is the caller's.
 */
export async function acceptDevicePasscode(
  ctx: Pick<AppContext, 'db' | 'encryptor'>,
  device: ConfirmedDevice,
  code: string,
): Promise<boolean> {
  const step = await matchTotpStep(ctx.encryptor.decrypt(device.secret_encrypted), code);
  const lastUsed = device.last_used_step === null ? null : Number(device.last_used_step);
  if (step === null || (lastUsed !== null && step <= lastUsed)) return false;
  return claimDeviceStep(ctx.db, device.id, step);
}
