import type { AppContext } from '../../platform/app-context';
import type { Session } from '../../http/session';
import { recordAudit } from '../../identity/audit';
import type { Account } from '../../platform/db-schema';
import * as sessions from '../../store/sessions';

/**
 * Moves the session's end to now + the lifetime, using up one extension, and returns the new end.
 * With none left (or a race lost against another tab) it changes nothing and returns null.
 */
export async function extendSession(
  ctx: AppContext,
  session: Session,
  account: Account,
  clientAddress: string,
) {
  const max = ctx.config.SESSION_MAX_EXTENSIONS;
  const lifetime = `${ctx.config.SESSION_LIFETIME_MINUTES} minutes`;
  return ctx.db.transaction().execute(async (tx) => {
    const updated = await sessions.useOneExtension(tx, session.idHash, max, lifetime);
    await recordAudit(tx, {
      action: 'session.extend',
      outcome: updated ? 'success' : 'failure',
      actor: { id: account.id, username: account.username },
      target: { id: account.id, username: account.username },
      clientAddress,
      details: { extensionsUsed: updated?.extensions_used ?? session.extensionsUsed },
    });
    return updated ? new Date(updated.expires_at) : null;
  });
}
