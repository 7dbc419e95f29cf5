import type { Config } from '../config';
import type { Db, Tx } from '../platform/db';

/**
 * Whether account management is in maintenance: the IIQ_MAINTENANCE setting forces it on,
 * otherwise the flag admins switch (Administration → Maintenance, or `admin maintenance on`).
 */
export async function isInMaintenance(ctx: { config: Config; db: Db }): Promise<boolean> {
  if (ctx.config.IIQ_MAINTENANCE) return true;
  return readMaintenanceFlag(ctx.db);
}

export async function readMaintenanceFlag(db: Db | Tx): Promise<boolean> {
  const row = await db
    .selectFrom('portal_settings')
    .select('maintenance')
    .where('id', '=', 1)
    .executeTakeFirst();
  return row?.maintenance ?? false;
}
