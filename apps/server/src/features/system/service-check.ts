import type { AppContext } from '../../platform/app-context';
import { isDatabaseUp } from '../../platform/db';
import { outboxCounts } from './queries';

/** The state of the parts the portal depends on, as plain text for people and load balancers. */
export async function serviceCheck(ctx: AppContext): Promise<{ ok: boolean; text: string }> {
  const databaseUp = await isDatabaseUp(ctx.db);
  const mail = await ctx.mailStatus();
  let backlog = 'unknown';
  let undeliverable = 'unknown';
  if (databaseUp) {
    const row = await outboxCounts(ctx.db);
    backlog = String(row?.pending ?? 0);
    undeliverable = String(row?.undeliverable ?? 0);
  }
  const lines = [
    `status: ${databaseUp ? 'OK' : 'DEGRADED'}`,
    `database: ${databaseUp ? 'up' : 'down'} (${ctx.dbKind === 'pglite' ? 'embedded' : 'PostgreSQL'})`,
    `mail: ${mail.text}`,
    `mail waiting to be sent: ${backlog}`,
    `mail undeliverable (refused by the relay): ${undeliverable}`,
    `identity service: ${ctx.config.IIQ_MAINTENANCE ? 'maintenance' : 'available'}`,
    `checked at: ${new Date().toISOString()}`,
  ];
  return { ok: databaseUp, text: `${lines.join('\n')}\n` };
}
