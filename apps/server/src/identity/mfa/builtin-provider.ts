import type { AppContext } from '../../platform/app-context';
import type { MfaProvider } from './provider';
import { findConfirmedDevice, findDeviceAndPush, findLiveAuthenticator } from '../../store/factors';
import { pushAndWait } from './push';
import { acceptDevicePasscode } from './totp-device';

/**
 * The portal's own MFA provider: the TOTP device enrolled at first sign-in for passcodes, and
 * the paired authenticator page (/authenticator) for pushes. All state is in the database.
 */
export function builtinMfaProvider(ctx: AppContext): MfaProvider {
  return {
    name: 'builtin',
    async device(accountId) {
      const device = await findDeviceAndPush(ctx.db, accountId);
      return device ? { nickname: device.nickname, canPush: Boolean(device.can_push) } : null;
    },
    async verifyPasscode(accountId, passcode) {
      const device = await findConfirmedDevice(ctx.db, accountId);
      if (!device) return 'invalidCode';
      return (await acceptDevicePasscode(ctx, device, passcode)) ? 'success' : 'invalidCode';
    },
    async push(request) {
      if (!(await findLiveAuthenticator(ctx.db, request.account.id))) return 'failure';
      return pushAndWait(ctx, request);
    },
  };
}
