import { factorMessages } from '@pra/contracts';
import type { AppContext } from '../../platform/app-context';
import { AppError } from '../../platform/app-error';
import type { Tx } from '../../platform/db';
import type { Account } from '../../platform/db-schema';
import type { Session } from '../../http/session';
import { recordAudit } from '../../identity/audit';
import { recordFactorChange } from '../../identity/mfa/factor-change';
import { pairingLink, pairPhone } from '../../identity/mfa/push';
import { revokeAuthenticator } from '../../store/factors';
import { takeFactorConfirmation } from './queries';

interface Caller {
  ctx: AppContext;
  account: Account;
  session: Session;
  clientAddress: string;
}

/**
 * Runs `change` in one transaction that first uses up the session's owner confirmation (from
 * POST /api/user/authenticator/confirm); without one nothing changes, and the refusal is audited.
 * A change that throws keeps the confirmation (its transaction rolls back).
 */
async function withConfirmation<T>(caller: Caller, action: string, change: (tx: Tx) => Promise<T>) {
  const { ctx, account, session } = caller;
  const done = await ctx.db.transaction().execute(async (tx) => {
    if (!(await takeFactorConfirmation(tx, session.idHash, account.id, ctx.clock.now().getTime())))
      return undefined;
    return { value: await change(tx) };
  });
  if (done) return done.value;
  const who = { id: account.id, username: account.username };
  await recordAudit(ctx.db, {
    action,
    outcome: 'denied',
    actor: who,
    target: who,
    clientAddress: caller.clientAddress,
    details: { reason: 'notConfirmed' },
  });
  throw new AppError('forbidden', factorMessages.confirmFirst);
}

/**
 * POST /api/user/authenticator/pair: one more phone beside those paired (never replacing one),
 * only with the owner's confirmation, which it uses up; mailed to the owner and audited.
 */
export async function addAuthenticator(caller: Caller & { nickname: string }) {
  const deviceKey = await withConfirmation(caller, 'mfa.pair', (tx) =>
    pairPhone(tx, caller.ctx, {
      account: caller.account,
      nickname: caller.nickname,
      clientAddress: caller.clientAddress,
    }),
  );
  return pairingLink(caller.ctx, deviceKey);
}

/**
 * POST /api/user/authenticator/remove: unpairs one of the account's phones, only with the owner's
 * confirmation, which it uses up; mailed to the owner and audited.
 */
export async function removeAuthenticator(caller: Caller & { id: string }): Promise<void> {
  await withConfirmation(caller, 'mfa.unpair', async (tx) => {
    const nickname = await revokeAuthenticator(tx, caller.account.id, caller.id);
    if (nickname === undefined) throw new AppError('notFound', factorMessages.notFound);
    await recordFactorChange(tx, caller.ctx, {
      account: caller.account,
      change: 'removed',
      action: 'mfa.unpair',
      kind: 'phone',
      nickname,
      clientAddress: caller.clientAddress,
    });
  });
}
