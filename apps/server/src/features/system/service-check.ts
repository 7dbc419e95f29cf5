import { sql } from 'kysely';
import type { AppContext } from '../../http/context';
import { isInMaintenance } from '../../identity/maintenance';
import { isDatabaseUp } from '../../platform/db';

/** The state of the parts the portal depends on, as plain text for people and load balancers. */
export async function serviceCheck(ctx: AppContext): Promise<{ ok: boolean; text: string }> {
  const databaseUp = await isDatabaseUp(ctx.db);
  const mail = await ctx.mailStatus();
  let backlog = 'unknown';
  let undeliverable = 'unknown';
  let identity = ctx.config.IIQ_MAINTENANCE ? 'maintenance' : 'unknown';
  if (databaseUp) {
    // Two counts, each answered from its partial index.
    const row = await sql<{ pending: number; undeliverable: number }>`
      select (select count(*) from outbox where status = 'pending')::int as pending,
             (select count(*) from outbox where status = 'undeliverable')::int as undeliverable`
      .execute(ctx.db)
      .then((r) => r.rows[0]);
    backlog = String(row?.pending ?? 0);
    undeliverable = String(row?.undeliverable ?? 0);
    identity = (await isInMaintenance(ctx)) ? 'maintenance' : 'available';
  }
  const lines = [
    `status: ${databaseUp ? 'OK' : 'DEGRADED'}`,
    `database: ${databaseUp ? 'up' : 'down'} (${ctx.dbKind === 'pglite' ? 'embedded' : 'PostgreSQL'})`,
    `mail: ${mail.text}`,
    `mail waiting to be sent: ${backlog}`,
    `mail undeliverable (refused by the relay): ${undeliverable}`,
    `identity service: ${identity}`,
    `checked at: ${new Date().toISOString()}`,
  ];
  return { ok: databaseUp, text: `${lines.join('\n')}\n` };
}
