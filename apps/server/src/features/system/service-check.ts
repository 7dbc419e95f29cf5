import { sql } from 'kysely';
import type { AppContext } from '../../http/context';
import { isDatabaseUp } from '../../platform/db';

/** The state of the parts the portal depends on, as plain text for people and load balancers. */
export async function serviceCheck(ctx: AppContext): Promise<{ ok: boolean; text: string }> {
  const databaseUp = await isDatabaseUp(ctx.db);
  const mail = await ctx.mailStatus();
  let backlog = 'unknown';
  if (databaseUp) {
    const row = await sql<{ pending: number }>`
      select count(*)::int as pending from outbox where status = 'pending'`
      .execute(ctx.db)
      .then((r) => r.rows[0]);
    backlog = String(row?.pending ?? 0);
  }
  const lines = [
    `status: ${databaseUp ? 'OK' : 'DEGRADED'}`,
    `database: ${databaseUp ? 'up' : 'down'} (${ctx.dbKind === 'pglite' ? 'embedded' : 'PostgreSQL'})`,
    `mail: ${mail.text}`,
    `mail waiting to be sent: ${backlog}`,
    `identity service: ${ctx.config.IIQ_MAINTENANCE ? 'maintenance' : 'available'}`,
    `checked at: ${new Date().toISOString()}`,
  ];
  return { ok: databaseUp, text: `${lines.join('\n')}\n` };
}
