import type { AppContext } from '../../platform/app-context';
import type { Db, Tx } from '../../platform/db';
import { matchTotpStep } from './totp';

export type ConfirmedDevice = NonNullable<Awaited<ReturnType<typeof findConfirmedDevice>>>;

/** The query for the account's confirmed TOTP authenticator (the newest), to run or join. */
export function confirmedDeviceQuery(db: Db | Tx, accountId: string) {
  return db
    .selectFrom('mfa_devices')
    .select(['id', 'nickname', 'secret_encrypted', 'last_used_step'])
    .where('account_id', '=', accountId)
    .where('confirmed_at', 'is not', null)
    .orderBy('confirmed_at', 'desc')
    .limit(1);
}

/** The account's confirmed TOTP authenticator (the newest), if it has one. */
export async function findConfirmedDevice(db: Db | Tx, accountId: string) {
  return confirmedDeviceQuery(db, accountId).executeTakeFirst();
}

/** The same, with whether a paired authenticator can receive pushes (one round trip). */
export async function findDeviceAndPush(db: Db | Tx, accountId: string) {
  return confirmedDeviceQuery(db, accountId)
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('authenticators')
            .select('id')
            .where('account_id', '=', accountId)
            .where('revoked_at', 'is', null),
        )
        .as('can_push'),
    )
    .executeTakeFirst();
}

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
  const claimed = await ctx.db
    .updateTable('mfa_devices')
    .set({ last_used_step: step })
    .where('id', '=', device.id)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}
