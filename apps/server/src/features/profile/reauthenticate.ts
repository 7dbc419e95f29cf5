import { profileMessages, REAUTHENTICATION_MINUTES } from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import type { Account } from '../../platform/db-schema';
import type { Session } from '../../http/session';
import { recordAudit } from '../../identity/audit';
import { checkCurrentPassword } from '../../identity/current-password';
import * as sessions from '../../store/sessions';

/**
 * GET /api/user/auth: checks the signed-in account's current password (`checkCurrentPassword`:
 * counted toward the sign-in lockout); a right one marks the session re-authenticated for a few
 * minutes.
 */
export async function reauthenticate(options: {
  ctx: AppContext;
  account: Account;
  session: Session;
  username: string;
  password: string;
  clientAddress: string;
}): Promise<boolean> {
  const { ctx, account, session, clientAddress } = options;
  const who = { id: account.id, username: account.username };
  if (options.username.trim().toLowerCase() !== account.username.toLowerCase()) {
    await recordAudit(ctx.db, {
      action: 'password.reauthenticate',
      outcome: 'denied',
      actor: who,
      target: who,
      clientAddress,
      details: { reason: 'otherAccount' },
    });
    throw new AppError('forbidden', profileMessages.otherAccount);
  }
  if (await checkCurrentPassword(ctx, account, options.password, clientAddress)) {
    await ctx.db.transaction().execute(async (tx) => {
      await sessions.markReauthenticated(
        tx,
        session.idHash,
        new Date(ctx.clock.now().getTime() + REAUTHENTICATION_MINUTES * 60_000),
      );
      await recordAudit(tx, {
        action: 'password.reauthenticate',
        outcome: 'success',
        actor: who,
        target: who,
        clientAddress,
      });
    });
    return true;
  }
  return false;
}
