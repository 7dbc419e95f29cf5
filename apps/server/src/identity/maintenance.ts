import type { Config } from '../config';
import type { AppContext } from '../platform/app-context';
import type { Db } from '../platform/db';
import { readMaintenanceFlag } from '../store/settings';

/** The spec's answer to an account-changing call while the identity service is unavailable (503). */
export const IIQ_UNAVAILABLE = 'Account management features are currently unavailable';

/**
 * Whether account management is in maintenance: the IIQ_MAINTENANCE setting forces it on,
 * otherwise the flag admins switch (Administration → Maintenance, or `admin maintenance on`).
 */
export async function isInMaintenance(ctx: { config: Config; db: Db }): Promise<boolean> {
  if (ctx.config.IIQ_MAINTENANCE) return true;
  return readMaintenanceFlag(ctx.db);
}

/**
 * Whether the spec's identity-management service (iiqAvailable) is up: not in maintenance, and the
 * identity store answers its health check (the hospital's directory with IDENTITY_STORE=ldap: a
 * bind and a base read, cached a few seconds; the built-in store always answers).
 */
export async function identityServiceUp(
  ctx: Pick<AppContext, 'config' | 'db' | 'identityStore'>,
): Promise<boolean> {
  if (await isInMaintenance(ctx)) return false;
  return (await ctx.identityStore.health()).ok;
}
