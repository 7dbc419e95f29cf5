import type { Config } from '../config';
import type { Db } from '../platform/db';
import { readMaintenanceFlag } from '../store/settings';

/**
 * Whether account management is in maintenance: the IIQ_MAINTENANCE setting forces it on,
 * otherwise the flag admins switch (Administration → Maintenance, or `admin maintenance on`).
 */
export async function isInMaintenance(ctx: { config: Config; db: Db }): Promise<boolean> {
  if (ctx.config.IIQ_MAINTENANCE) return true;
  return readMaintenanceFlag(ctx.db);
}
