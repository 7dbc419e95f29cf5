import type { AppContext } from '../../platform/app-context';
import { isInMaintenance } from '../../identity/maintenance';
import { isDatabaseUp } from '../../platform/db';
import { readOutboxState } from '../../store/outbox';
import { version } from '../../platform/version';

/**
 * The state of the portal as plain text. Everyone gets the first line (`status: OK` or
 * `status: DEGRADED`), which is what monitors match; only a signed-in administrator gets the
 * details (database kind, relay, backlog, the portal's version), which tell an outsider how the
 * hospital runs it.
 */
export async function serviceCheck(
  ctx: AppContext,
  withDetails: boolean,
): Promise<{ ok: boolean; text: string }> {
  const databaseUp = await isDatabaseUp(ctx.db);
  const status = `status: ${databaseUp ? 'OK' : 'DEGRADED'}`;
  if (!withDetails) return { ok: databaseUp, text: `${status}\n` };
  const mail = await ctx.mailStatus();
  let backlog = 'unknown';
  let undeliverable = 'unknown';
  let identity = ctx.config.IIQ_MAINTENANCE ? 'maintenance' : 'unknown';
  if (databaseUp) {
    const state = await readOutboxState(ctx.db);
    backlog = String(state.pending);
    undeliverable = String(state.undeliverable);
    const directory = await ctx.identityStore.health();
    identity = (await isInMaintenance(ctx))
      ? 'maintenance'
      : directory.ok
        ? `available (${ctx.identityStore.kind === 'ldap' ? 'the directory answers' : 'built-in'})`
        : 'unavailable (the directory does not answer)';
  }
  const lines = [
    status,
    `database: ${databaseUp ? 'up' : 'down'} (${ctx.dbKind === 'pglite' ? 'embedded' : 'PostgreSQL'})`,
    `mail: ${mail.text}`,
    `mail waiting to be sent: ${backlog}`,
    `mail undeliverable (refused by the relay): ${undeliverable}`,
    `identity service: ${identity}`,
    `version: ${version} (Node.js ${process.version})`,
    `checked at: ${new Date().toISOString()}`,
  ];
  return { ok: databaseUp, text: `${lines.join('\n')}\n` };
}
