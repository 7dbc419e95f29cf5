import { profileMessages } from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import type { Account } from '../../platform/db-schema';
import type { Session } from '../../http/session';
import { recordAudit } from '../../identity/audit';
import { preparePassword, storePassword } from '../../identity/password-change';
import { writeDirectoryPassword } from '../../identity/directory-password';
import * as sessions from '../../store/sessions';

/**
 * POST /api/user/auth/change-password: only within the few minutes after GET /api/user/auth
 * confirmed the current password in this session. The mark is used up by the change; the
 * account's other sessions end, this one stays.
 */
export async function changePassword(options: {
  ctx: AppContext;
  account: Account;
  session: Session;
  newPassword: string;
  clientAddress: string;
}): Promise<void> {
  const { ctx, account, session, clientAddress } = options;
  const who = { id: account.id, username: account.username };
  const refuse = async () => {
    await recordAudit(ctx.db, {
      action: 'password.change',
      outcome: 'denied',
      actor: who,
      target: who,
      clientAddress,
      details: { reason: 'notReauthenticated' },
    });
    return new AppError('forbidden', profileMessages.reauthenticationRequired);
  };
  if (!sessions.isReauthenticated(session, ctx.clock.now())) throw await refuse();
  const passwordHash = await preparePassword(ctx, account, options.newPassword);
  // The directory first: a refusal or an outage leaves the re-authentication mark unused.
  await writeDirectoryPassword(ctx, account, options.newPassword);
  const outcome = await ctx.db.transaction().execute(async (tx) => {
    if (!(await sessions.consumeReauthentication(tx, session.idHash, ctx.clock.now())))
      return 'notReauthenticated' as const;
    const stored = await storePassword(tx, ctx, {
      account,
      passwordHash,
      keepSessionIdHash: session.idHash,
      action: 'password.change',
      actor: who,
      clientAddress,
    });
    return stored ? ('changed' as const) : ('inactive' as const);
  });
  if (outcome === 'notReauthenticated') throw await refuse();
  if (outcome === 'inactive') throw new AppError('conflict', profileMessages.unexpected);
}
